import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttachmentTooLargeError, TranscoderUnavailableError, UndecodableAudioError } from './errors.js';

export interface FfmpegPcmOptions {
  ffmpegPath: string;
  sampleRate: number;
  /** Extension of the input, a hint for ffmpeg's probing. */
  inputExt: string;
  /** Stop ffmpeg once its output passes this many bytes (audio too long). */
  maxOutputBytes: number;
  signal?: AbortSignal;
}

const STDERR_TAIL_CHARS = 600;

/**
 * Decodes the first audio stream of any container ffmpeg knows to raw mono
 * s16le PCM. The input goes through a temporary file rather than stdin because
 * MP4/M4A files whose index ("moov") sits at the end cannot be read from a pipe,
 * and phones write them that way. The output is raw PCM so that our own WAV
 * writer sets the header sizes (ffmpeg cannot seek back into a pipe to fix them).
 */
export async function ffmpegToPcm(bytes: Uint8Array, options: FfmpegPcmOptions): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'chatbridge-audio-'));
  const inputPath = join(dir, `input.${options.inputExt.replace(/[^a-z0-9]/gi, '') || 'bin'}`);
  try {
    await writeFile(inputPath, bytes);
    return await runFfmpeg(inputPath, options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runFfmpeg(inputPath: string, options: FfmpegPcmOptions): Promise<Uint8Array> {
  const args = [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-i',
    inputPath,
    '-vn',
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    String(options.sampleRate),
    '-c:a',
    'pcm_s16le',
    '-f',
    's16le',
    '-map_metadata',
    '-1',
    '-bitexact',
    'pipe:1',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(options.ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
    const chunks: Buffer[] = [];
    let outputBytes = 0;
    let stderr = '';
    let failure: Error | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      outputBytes += chunk.length;
      if (outputBytes > options.maxOutputBytes) {
        failure ??= new AttachmentTooLargeError(options.maxOutputBytes, outputBytes);
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EACCES') {
        failure ??= new TranscoderUnavailableError(options.ffmpegPath, { cause: error });
      } else {
        failure ??= error;
      }
      // A process that never started may not emit 'close'.
      if (child.pid === undefined) reject(failure);
    });
    child.on('close', (code) => {
      if (failure) return reject(failure);
      if (code !== 0) {
        return reject(
          new UndecodableAudioError(
            `ffmpeg could not decode the audio (exit code ${code}): ${stderr.trim() || 'no details'}`,
          ),
        );
      }
      const pcm = Buffer.concat(chunks);
      resolve(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.length));
    });
  });
}
