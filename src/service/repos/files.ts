import { fileTypeFromBuffer } from 'file-type';
import type { StateStore } from '../../state/types.js';
import { notFound } from '../envelope.js';
import { svcKeys } from '../state-keys.js';
import { isAnimatedGif } from '../media/gif.js';

export interface StoredFileMeta {
  fileId: number;
  fileName: string;
  createdAt: string;
  /** Set once the bytes arrived (PUT to the pre-upload URL). */
  uploadedAt?: string;
  size?: number;
  /** Sniffed from the bytes, never taken from the name or the PUT's Content-Type. */
  mime?: string;
  ext?: string;
  animated?: boolean;
  confirmedAt?: string;
}

export type UploadedFile = Required<Pick<StoredFileMeta, 'uploadedAt' | 'size'>> & StoredFileMeta;

/**
 * Files live in the StateStore: metadata as JSON under `svc:file:<id>`, bytes
 * base64-encoded under `svc:filedata:<id>`, both expiring after `fileTtlMs`. That
 * keeps one source of truth for several service processes and needs no disk
 * configuration; the price is ~33% more memory per file, bounded by the size limits.
 */
export class FileRepository {
  constructor(
    private readonly state: StateStore,
    private readonly fileTtlMs: number,
  ) {}

  async reserve(fileName: string): Promise<StoredFileMeta> {
    const fileId = await this.state.incr(svcKeys.sequence('file'));
    const meta: StoredFileMeta = { fileId, fileName, createdAt: new Date().toISOString() };
    await this.state.set(svcKeys.file(fileId), JSON.stringify(meta), { ttlMs: this.fileTtlMs });
    return meta;
  }

  async find(fileId: number): Promise<StoredFileMeta | null> {
    const raw = await this.state.get(svcKeys.file(fileId));
    return raw === null ? null : (JSON.parse(raw) as StoredFileMeta);
  }

  async get(fileId: number): Promise<StoredFileMeta> {
    const meta = await this.find(fileId);
    if (!meta)
      throw notFound(
        `No uploaded file has the id ${fileId} (it may have expired); upload it again with /chat/User/GetPreUploadUrl.`,
      );
    return meta;
  }

  /** Stores the bytes with their sniffed type; a second PUT to a still-valid URL replaces the first. */
  async storeBytes(meta: StoredFileMeta, bytes: Buffer): Promise<UploadedFile> {
    const type = await fileTypeFromBuffer(bytes);
    const stored: UploadedFile = {
      ...meta,
      uploadedAt: new Date().toISOString(),
      size: bytes.length,
      mime: type?.mime ?? 'application/octet-stream',
      ext: type?.ext ?? '',
      animated: type?.ext === 'gif' ? isAnimatedGif(bytes) : type?.ext === 'apng',
    };
    await this.state.atomic([
      { op: 'set', key: svcKeys.fileData(meta.fileId), value: bytes.toString('base64'), ttlMs: this.fileTtlMs },
      { op: 'set', key: svcKeys.file(meta.fileId), value: JSON.stringify(stored), ttlMs: this.fileTtlMs },
    ]);
    return stored;
  }

  async markConfirmed(meta: UploadedFile): Promise<UploadedFile> {
    if (meta.confirmedAt) return meta;
    const confirmed = { ...meta, confirmedAt: new Date().toISOString() };
    await this.state.set(svcKeys.file(meta.fileId), JSON.stringify(confirmed), { ttlMs: this.fileTtlMs });
    return confirmed;
  }

  async bytes(fileId: number): Promise<Buffer> {
    const raw = await this.state.get(svcKeys.fileData(fileId));
    if (raw === null) throw notFound(`The bytes of file ${fileId} are gone (expired); upload it again.`);
    return Buffer.from(raw, 'base64');
  }
}
