/**
 * The few S3 calls S3Files makes, on @aws-sdk/client-s3 (an optional peer dependency: loaded on
 * first use, so a host without S3 storage does not need it). Every answer is bounded: a GET stops
 * at its byte cap, a listing at its key budget. Failures come out as S3Failure, which carries the
 * S3 error name and HTTP status only; s3-files.ts turns them into FileErrors that name the virtual
 * path, never a key, bucket or host.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { currentRenderSignal } from '../../../host-api/render-signal.js';

export interface S3Location {
  /** e.g. `https://s3.ap-northeast-1.amazonaws.com` or a compatible server; absent: AWS by region. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` rather than `https://bucket.host/key` (most compatible servers want it). */
  forcePathStyle?: boolean;
  /** Milliseconds for one request (default 30 s). */
  requestTimeoutMs?: number;
}

export interface ObjectHead {
  size: number;
  mtime: number;
  etag: string | undefined;
}

export interface PutOptions {
  acl: 'public-read' | 'private';
  contentType: string;
  /** Write only if the object still has this ETag (appends), or does not exist yet (`*` as ifNoneMatch). */
  ifMatch?: string;
  ifNoneMatch?: '*';
}

/** A failed S3 call: the service's error name and HTTP status, nothing that names the bucket or key. */
export class S3Failure extends Error {
  constructor(
    readonly errorName: string,
    readonly status: number | undefined,
  ) {
    super(`S3 ${errorName}${status ? ` (HTTP ${status})` : ''}`);
    this.name = 'S3Failure';
  }
  get notFound(): boolean {
    return this.status === 404 || this.errorName === 'NoSuchKey' || this.errorName === 'NotFound';
  }
  get preconditionFailed(): boolean {
    return this.status === 412 || this.errorName === 'PreconditionFailed';
  }
}

/** Thrown by `get` past its cap (the caller names the path). */
export class TooLarge extends Error {
  constructor(readonly max: number) {
    super(`larger than ${max} bytes`);
  }
}

type Sdk = typeof import('@aws-sdk/client-s3');

function failure(e: unknown): S3Failure {
  if (e instanceof S3Failure) return e;
  const o = (typeof e === 'object' && e !== null ? e : {}) as {
    name?: unknown;
    code?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  const name = typeof o.code === 'string' ? o.code : typeof o.name === 'string' ? o.name : 'Error';
  return new S3Failure(name.replace(/[^A-Za-z0-9_]/g, '').slice(0, 60) || 'Error', o.$metadata?.httpStatusCode);
}

/** A request made for a render stops when the render ends (D152): its signal, where there is one. */
function sendOptions(): { abortSignal?: AbortSignal } {
  const signal = currentRenderSignal();
  return signal ? { abortSignal: signal } : {};
}

export class Bucket {
  private loaded: Promise<{ sdk: Sdk; client: S3Client }> | undefined;

  constructor(private readonly loc: S3Location) {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(loc.bucket))
      throw new TypeError('S3Files: bucket must be an S3 bucket name');
  }

  /** The bucket's name: what every process names it by, whatever endpoint it reaches it through (shared lock keys). */
  get name(): string {
    return this.loc.bucket;
  }

  /** Identifies the storage for process-wide locks: the same bucket reached twice shares them. */
  get identity(): string {
    return `s3:${this.loc.endpoint ?? this.loc.region}/${this.loc.bucket}`;
  }

  private load(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.loaded ??= import('@aws-sdk/client-s3').then(
      (sdk) => {
        const client = new sdk.S3Client({
          region: this.loc.region,
          endpoint: this.loc.endpoint,
          forcePathStyle: this.loc.forcePathStyle ?? false,
          credentials: { accessKeyId: this.loc.accessKeyId, secretAccessKey: this.loc.secretAccessKey },
          maxAttempts: 2,
          // S3-compatible servers do not all accept the SDK's default CRC32 trailers.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
          requestHandler: { requestTimeout: this.loc.requestTimeoutMs ?? 30_000, connectionTimeout: 10_000 },
        });
        return { sdk, client };
      },
      () => {
        throw new S3Failure('SdkNotInstalled', undefined);
      },
    );
    return this.loaded;
  }

  async head(key: string): Promise<ObjectHead | null> {
    const { sdk, client } = await this.load();
    try {
      const r = await client.send(new sdk.HeadObjectCommand({ Bucket: this.loc.bucket, Key: key }), sendOptions());
      return { size: r.ContentLength ?? 0, mtime: r.LastModified?.getTime() ?? 0, etag: r.ETag };
    } catch (e) {
      const f = failure(e);
      if (f.notFound) return null;
      throw f;
    }
  }

  /** The whole object, at most `max` bytes (TooLarge past it, checked on the declared length first, then while reading). */
  async get(key: string, max: number): Promise<{ data: Uint8Array; etag: string | undefined }> {
    const { sdk, client } = await this.load();
    let body: AsyncIterable<Uint8Array> & { destroy?: () => void };
    let etag: string | undefined;
    try {
      const r = await client.send(new sdk.GetObjectCommand({ Bucket: this.loc.bucket, Key: key }), sendOptions());
      body = r.Body as unknown as typeof body;
      etag = r.ETag;
      if ((r.ContentLength ?? 0) > max) {
        body.destroy?.();
        throw new TooLarge(max);
      }
    } catch (e) {
      if (e instanceof TooLarge) throw e;
      throw failure(e);
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for await (const chunk of body) {
        total += chunk.length;
        if (total > max) throw new TooLarge(max);
        chunks.push(chunk);
      }
    } catch (e) {
      body.destroy?.();
      if (e instanceof TooLarge) throw e;
      throw failure(e);
    }
    return { data: new Uint8Array(Buffer.concat(chunks, total)), etag };
  }

  /**
   * The object as it arrives, at most `max` bytes (TooLarge on the declared length before any
   * byte, and while reading should the server send more): for serving a file with bounded memory.
   */
  async getStream(
    key: string,
    max: number,
  ): Promise<{ size: number; chunks: AsyncIterable<Uint8Array>; close(): void }> {
    const { sdk, client } = await this.load();
    let body: AsyncIterable<Uint8Array> & { destroy?: () => void };
    let size: number;
    try {
      const r = await client.send(new sdk.GetObjectCommand({ Bucket: this.loc.bucket, Key: key }), sendOptions());
      body = r.Body as unknown as typeof body;
      size = r.ContentLength ?? 0;
    } catch (e) {
      throw failure(e);
    }
    if (size > max) {
      body.destroy?.();
      throw new TooLarge(max);
    }
    async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
      let total = 0;
      try {
        for await (const chunk of body) {
          total += chunk.length;
          if (total > max) throw new TooLarge(max);
          yield chunk;
        }
      } catch (e) {
        if (e instanceof TooLarge) throw e;
        throw failure(e);
      } finally {
        body.destroy?.();
      }
    }
    return { size, chunks: chunks(), close: () => body.destroy?.() };
  }

  async put(key: string, data: Uint8Array, o: PutOptions): Promise<void> {
    const { sdk, client } = await this.load();
    try {
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.loc.bucket,
          Key: key,
          Body: data,
          ContentLength: data.length,
          ACL: o.acl,
          ContentType: o.contentType,
          IfMatch: o.ifMatch,
          IfNoneMatch: o.ifNoneMatch,
        }),
        sendOptions(),
      );
    } catch (e) {
      throw failure(e);
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    const { sdk, client } = await this.load();
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      try {
        if (batch.length === 1) {
          await client.send(new sdk.DeleteObjectCommand({ Bucket: this.loc.bucket, Key: batch[0] }), sendOptions());
          continue;
        }
        const r = await client.send(
          new sdk.DeleteObjectsCommand({
            Bucket: this.loc.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
          sendOptions(),
        );
        if (r.Errors?.length) throw new S3Failure(r.Errors[0].Code ?? 'DeleteFailed', undefined);
      } catch (e) {
        throw failure(e);
      }
    }
  }

  /**
   * Every key below `prefix`, in the service's order, with its size and time. Stops with `over()`
   * once more than `budget` keys were read (at most one page more is fetched).
   */
  async list(
    prefix: string,
    budget: number,
    over: () => Error,
    counted?: { count: number },
  ): Promise<{ key: string; size: number; mtime: number }[]> {
    const { sdk, client } = await this.load();
    const out: { key: string; size: number; mtime: number }[] = [];
    let token: string | undefined;
    do {
      let r;
      try {
        r = await client.send(
          new sdk.ListObjectsV2Command({
            Bucket: this.loc.bucket,
            Prefix: prefix,
            ContinuationToken: token,
            MaxKeys: Math.max(1, Math.min(1000, budget + 1 - out.length)),
          }),
          sendOptions(),
        );
      } catch (e) {
        throw failure(e);
      }
      for (const o of r.Contents ?? []) {
        if (counted) counted.count++;
        if (out.length >= budget) throw over();
        if (o.Key !== undefined) out.push({ key: o.Key, size: o.Size ?? 0, mtime: o.LastModified?.getTime() ?? 0 });
      }
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  /** Is there any key below `prefix`? */
  async any(prefix: string): Promise<boolean> {
    const { sdk, client } = await this.load();
    try {
      const r = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.loc.bucket, Prefix: prefix, MaxKeys: 1 }),
        sendOptions(),
      );
      return (r.Contents?.length ?? 0) > 0;
    } catch (e) {
      throw failure(e);
    }
  }

  /** A presigned GET URL valid `seconds` seconds (S3 allows at most 7 days). */
  async presignGet(key: string, seconds: number): Promise<string> {
    const { sdk, client } = await this.load();
    let presigner: typeof import('@aws-sdk/s3-request-presigner');
    try {
      presigner = await import('@aws-sdk/s3-request-presigner');
    } catch {
      throw new S3Failure('PresignerNotInstalled', undefined);
    }
    return presigner.getSignedUrl(client, new sdk.GetObjectCommand({ Bucket: this.loc.bucket, Key: key }), {
      expiresIn: seconds,
    });
  }
}
