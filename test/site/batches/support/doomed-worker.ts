/**
 * A worker in a process of its own that a test kills with SIGKILL in the middle of a job: it
 * opens the queue (argv: a QueueTarget as JSON, the lease in ms), claims one run as owner
 * `doomed`, prints the run as one JSON line, and keeps renewing its lease as a live worker does,
 * until it is killed.
 */
import { openTarget, type QueueTarget } from './targets.js';

const target = JSON.parse(process.argv[2]!) as QueueTarget;
const leaseMs = Number(process.argv[3]);
const { queue } = await openTarget(target, leaseMs);
const run = await queue.claim('doomed');
process.stdout.write(JSON.stringify(run) + '\n');
setInterval(() => void queue.renew(run!.id, 'doomed'), Math.floor(leaseMs / 3));
