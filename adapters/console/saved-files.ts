/**
 * Where a file sent to the person at the terminal goes: a directory of its own in the OS temp
 * dir (`chatbridge-files/`), under the file's own name (made safe for a path: no directories,
 * no characters a file system refuses), never over a file already there (`plan (2).pdf`).
 */
import { mkdir, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function defaultFilesDir(): string {
  return path.join(tmpdir(), 'chatbridge-files');
}

/** The name as given, without any directory part and with characters no file system takes replaced. */
export function safeFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  const cleaned = base.replace(/[<>:"|?*\u0000-\u001f]/g, '_').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

/** `plan.pdf`, then `plan (2).pdf`, `plan (3).pdf`… */
function numbered(name: string, n: number): string {
  if (n === 1) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/** Writes the bytes under a free name in `dir` (created when missing); the path written. */
export async function saveFile(dir: string, fileName: string, bytes: Uint8Array): Promise<string> {
  await mkdir(dir, { recursive: true });
  const name = safeFileName(fileName);
  for (let n = 1; ; n++) {
    const target = path.join(dir, numbered(name, n));
    // 'wx': created here or refused, so two files of one name never overwrite each other.
    const handle = await open(target, 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw error;
    });
    if (!handle) continue;
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    return target;
  }
}

/** "512 bytes", "12.3 KB", "4.5 MB", "100 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}
