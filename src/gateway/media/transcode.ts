import { AttachmentTooLargeError, UndecodableAudioError } from './errors.js';
import { ffmpegToPcm } from './ffmpeg.js';
import { MEDIA_LIMITS, WAV_SAMPLE_RATE } from './limits.js';
import { decodeOggOpus } from './opus.js';
import type { SniffedMedia } from './sniff.js';
import { downmixAndDecimate, encodeWav, wavFromPcm16le } from './wav.js';

export interface ToWavOptions {
  /** ffmpeg binary for formats other than OGG/Opus and WAV; default "ffmpeg" on PATH. */
  ffmpegPath?: string;
  signal?: AbortSignal;
  /** Largest WAV to produce (bytes); longer audio fails with AttachmentTooLargeError. */
  maxWavBytes?: number;
}

const OPUS_MIMES = new Set(['audio/ogg; codecs=opus', 'audio/opus']);

/**
 * Converts audio to what the service accepts (WAV only): 16 kHz 16-bit mono PCM.
 * OGG/Opus voice notes are decoded in-process (WASM), WAV passes through unchanged,
 * anything else needs ffmpeg (TranscoderUnavailableError when it is missing).
 */
export async function toWav(bytes: Uint8Array, sniffed: SniffedMedia, options: ToWavOptions = {}): Promise<Uint8Array> {
  options.signal?.throwIfAborted();
  const maxWavBytes = options.maxWavBytes ?? MEDIA_LIMITS.audioBytes;
  if (sniffed.mime === 'audio/wav') return bytes;
  if (OPUS_MIMES.has(sniffed.mime)) {
    const wav = await opusToWav(bytes);
    if (wav.length > maxWavBytes) throw new AttachmentTooLargeError(maxWavBytes, wav.length);
    return wav;
  }
  const pcm = await ffmpegToPcm(bytes, {
    ffmpegPath: options.ffmpegPath ?? 'ffmpeg',
    sampleRate: WAV_SAMPLE_RATE,
    inputExt: sniffed.ext,
    maxOutputBytes: maxWavBytes,
    signal: options.signal,
  });
  if (pcm.length < 2) throw new UndecodableAudioError(`The ${sniffed.mime} file has no audible samples.`);
  return wavFromPcm16le(pcm, WAV_SAMPLE_RATE);
}

async function opusToWav(bytes: Uint8Array): Promise<Uint8Array> {
  const decoded = await decodeOggOpus(bytes);
  // Garbage does not make the decoder throw; it yields zero samples.
  if (decoded.samplesDecoded === 0) {
    throw new UndecodableAudioError('The OGG/Opus file decoded to 0 samples: it is corrupt or not audio.');
  }
  const samples = downmixAndDecimate(decoded.channelData, decoded.sampleRate, WAV_SAMPLE_RATE);
  return encodeWav(samples, WAV_SAMPLE_RATE);
}
