/**
 * Reads Bot API parameters the way Telegram does: from the query string, a JSON
 * body, an urlencoded body or a multipart/form-data body. In the form encodings
 * every value is a string and objects (reply_markup, allowed_updates) are JSON.
 */

export interface UploadedFile {
  fileName: string;
  mimeType: string;
  bytes: Buffer;
}

export interface RawRequest {
  params: Record<string, unknown>;
  /** multipart file parts by field name (referenced as `attach://<name>` or directly by the field). */
  files: Map<string, UploadedFile>;
}

/** A wrong or missing parameter: the method answers 400 with this description. */
export class BadRequest extends Error {
  constructor(description: string) {
    super(`Bad Request: ${description}`);
  }
}

/** Minimal multipart/form-data parser: enough for what HTTP clients (grammY included) send. */
export function parseMultipart(body: Buffer, contentType: string): RawRequest {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const delimiter = boundary?.[1] ?? boundary?.[2];
  if (!delimiter) throw new BadRequest('multipart body without boundary');
  const marker = Buffer.from(`--${delimiter}`);
  const params: Record<string, unknown> = {};
  const files = new Map<string, UploadedFile>();
  let start = body.indexOf(marker);
  while (start >= 0) {
    const partStart = start + marker.length;
    if (body.subarray(partStart, partStart + 2).toString() === '--') break;
    const next = body.indexOf(marker, partStart);
    if (next < 0) break;
    // Each part: CRLF, headers, CRLF CRLF, content, CRLF before the next marker.
    const part = body.subarray(partStart + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const content = part.subarray(headerEnd + 4);
    // Quotes are optional in practice (grammY sends filename unquoted).
    const name = /[;\s]name=(?:"([^"]*)"|([^;\r\n]*))/i.exec(headers);
    const fileNameMatch = /filename=(?:"([^"]*)"|([^;\r\n]*))/i.exec(headers);
    const fieldName = name ? (name[1] ?? name[2]) : undefined;
    const fileName = fileNameMatch ? (fileNameMatch[1] ?? fileNameMatch[2]) : undefined;
    if (fieldName !== undefined) {
      if (fileName !== undefined) {
        const mimeType = /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
        files.set(fieldName, { fileName, mimeType, bytes: Buffer.from(content) });
      } else {
        params[fieldName] = content.toString('utf8');
      }
    }
    start = next;
  }
  return { params, files };
}

export class Params {
  constructor(private readonly raw: RawRequest) {}

  has(name: string): boolean {
    return this.raw.params[name] !== undefined && this.raw.params[name] !== null;
  }

  all(): Record<string, unknown> {
    return { ...this.raw.params };
  }

  optionalString(name: string): string | undefined {
    const value = this.raw.params[name];
    if (value === undefined || value === null) return undefined;
    return typeof value === 'string' ? value : String(value);
  }

  string(name: string): string {
    const value = this.optionalString(name);
    if (value === undefined) throw new BadRequest(`${name} is empty`);
    return value;
  }

  optionalNumber(name: string): number | undefined {
    const value = this.raw.params[name];
    if (value === undefined || value === null || value === '') return undefined;
    const parsed = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(parsed)) throw new BadRequest(`invalid ${name} specified`);
    return parsed;
  }

  number(name: string): number {
    const value = this.optionalNumber(name);
    if (value === undefined) throw new BadRequest(`${name} is empty`);
    return value;
  }

  chatId(): number {
    const value = this.optionalNumber('chat_id');
    if (value === undefined) throw new BadRequest('chat_id is empty');
    if (value === 0) throw new BadRequest('chat not found');
    return value;
  }

  boolean(name: string): boolean {
    const value = this.raw.params[name];
    return value === true || value === 'true' || value === 1 || value === '1';
  }

  /** An object parameter; form encodings carry it as JSON text. */
  json<T>(name: string): T | undefined {
    const value = this.raw.params[name];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') return value as T;
    try {
      return JSON.parse(value) as T;
    } catch {
      throw new BadRequest(`can't parse ${name} JSON object`);
    }
  }

  /** An InputFile parameter: a file_id/URL string, or an uploaded part (`attach://name` or the field itself). */
  inputFile(name: string): { fileId?: string; upload?: UploadedFile } {
    const upload = this.raw.files.get(name);
    if (upload) return { upload };
    const value = this.optionalString(name);
    if (value === undefined) throw new BadRequest(`there is no ${name} in the request`);
    const attach = /^attach:\/\/(.+)$/.exec(value)?.[1];
    if (attach !== undefined) {
      const file = this.raw.files.get(attach);
      if (!file) throw new BadRequest(`file attach://${attach} not found`);
      return { upload: file };
    }
    return { fileId: value };
  }
}
