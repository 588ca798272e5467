/**
 * The position slot: generated code stores in `[0]` the line-table index (1-based) of the loop,
 * plugin or modifier call it is in. The host shares the memory (src/sandbox/isolate-host.ts) and
 * reads it after a CPU or wall timeout or a memory kill, when the isolate has no stack to tell;
 * warnings record it, so the host can say where each was raised.
 */
let whereSlot: Int32Array = new Int32Array(1);

export function setWhere(slot: Int32Array): void {
  whereSlot = slot;
}

export function whereSlotNow(): Int32Array {
  return whereSlot;
}
