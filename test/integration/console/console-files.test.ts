/**
 * A file sent to the person at the console (Outbound.sendFile, an operator's photo or document):
 * saved to a directory, its name, size and path printed with its caption, never over another
 * file and never outside that directory.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsoleAdapter } from '../../../adapters/console/index.js';
import { PlatformError } from '../../../src/contract.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A console whose files go to a fresh directory; everything printed is collected. */
async function console_() {
  const dir = await mkdtemp(path.join(tmpdir(), 'console-files-'));
  dirs.push(dir);
  const filesDir = path.join(dir, 'chatbridge-files');
  const output = Object.assign(new PassThrough(), { isTTY: false, columns: 80 });
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const adapter = createConsoleAdapter({ bot: 'main', input: new PassThrough(), output, filesDir });
  return { adapter, filesDir, printed: () => printed };
}

describe('console sendFile', () => {
  it('declares files up to 100 MB', async () => {
    const { adapter } = await console_();
    expect(adapter.capabilities.maxUploadBytes).toBe(100 * 1024 * 1024);
  });

  it('saves a photo and says where, with its size', async () => {
    const { adapter, filesDir, printed } = await console_();
    await adapter.outbound.sendFile!(adapter.conversation, {
      bytes: PNG,
      fileName: 'kitchen.png',
      mimeType: 'image/png',
    });
    const saved = path.join(filesDir, 'kitchen.png');
    expect((await readFile(saved)).equals(PNG)).toBe(true);
    expect(printed()).toBe(`bot> 📎 kitchen.png (${PNG.length} bytes) saved to ${saved}\n`);
  });

  it('saves a PDF under its file name and prints its caption under the line', async () => {
    const { adapter, filesDir, printed } = await console_();
    await adapter.outbound.sendFile!(adapter.conversation, {
      bytes: PDF,
      fileName: 'Floor plan.pdf',
      mimeType: 'application/pdf',
      caption: 'Here is the floor plan',
    });
    const saved = path.join(filesDir, 'Floor plan.pdf');
    expect((await readFile(saved)).equals(PDF)).toBe(true);
    expect(printed()).toBe(`bot> 📎 Floor plan.pdf (${PDF.length} bytes) saved to ${saved}\nHere is the floor plan\n`);
  });

  it('never writes over a file of the same name, nor outside its directory', async () => {
    const { adapter, filesDir } = await console_();
    const send = (fileName: string, text: string) =>
      adapter.outbound.sendFile!(adapter.conversation, { bytes: Buffer.from(text), fileName });
    await send('plan.pdf', 'first');
    await send('plan.pdf', 'second');
    await send('../../escape.txt', 'contained');
    expect((await readdir(filesDir)).sort()).toEqual(['escape.txt', 'plan (2).pdf', 'plan.pdf']);
    expect(await readFile(path.join(filesDir, 'plan.pdf'), 'utf8')).toBe('first');
    expect(await readFile(path.join(filesDir, 'plan (2).pdf'), 'utf8')).toBe('second');
  });

  it('refuses a file over 100 MB as too long, and saves nothing', async () => {
    const { adapter, filesDir } = await console_();
    const error = await adapter.outbound.sendFile!(adapter.conversation, {
      bytes: new Uint8Array(100 * 1024 * 1024 + 1),
      fileName: 'huge.pdf',
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).kind).toBe('too-long');
    expect((error as PlatformError).message).toMatch(/at most 100 MB/);
    await expect(readdir(filesDir)).rejects.toThrow(/ENOENT/);
  });
});
