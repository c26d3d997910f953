import { describe, expect, it } from 'vitest';
import { TranscoderUnavailableError, UndecodableAudioError } from '../../../../src/gateway/media/errors.js';
import { sniffMedia } from '../../../../src/gateway/media/sniff.js';
import { toWav } from '../../../../src/gateway/media/transcode.js';
import { encodeWav } from '../../../../src/gateway/media/wav.js';
import { ffmpegAvailable, fixture, readWav, toneFrequency } from './support.js';

async function convert(bytes: Uint8Array, options?: Parameters<typeof toWav>[2]): Promise<Uint8Array> {
  return toWav(bytes, await sniffMedia(bytes), options);
}

function expectSpeechWav(wav: Uint8Array, seconds: number): void {
  const info = readWav(wav);
  expect(info).toMatchObject({
    riff: 'RIFF',
    wave: 'WAVE',
    fmt: 'fmt ',
    data: 'data',
    audioFormat: 1,
    channels: 1,
    sampleRate: 16_000,
    byteRate: 32_000,
    blockAlign: 2,
    bitsPerSample: 16,
  });
  expect(info.riffSize).toBe(wav.length - 8);
  expect(info.dataBytes).toBe(wav.length - 44);
  expect(info.samples.length / 16_000).toBeCloseTo(seconds, 1);
  expect(toneFrequency(info.samples, 16_000)).toBeGreaterThan(430);
  expect(toneFrequency(info.samples, 16_000)).toBeLessThan(450);
}

describe('toWav: OGG/Opus voice notes, decoded without ffmpeg', () => {
  it('gives a 16 kHz 16-bit mono WAV of the same duration and pitch', async () => {
    expectSpeechWav(await convert(fixture('voice-440hz-2s.ogg')), 2);
  });

  it('reuses its decoder for notes converted at the same time', async () => {
    const voice = fixture('voice-440hz-2s.ogg');
    const results = await Promise.all([convert(voice), convert(voice), convert(voice)]);
    for (const wav of results) expectSpeechWav(wav, 2);
    expect(Buffer.from(results[1] ?? []).equals(Buffer.from(results[0] ?? []))).toBe(true);
  });

  it('rejects an OGG/Opus file that decodes to no sound at all', async () => {
    const garbage = new Uint8Array(4000).fill(7);
    const sniffedAsOpus = { mime: 'audio/ogg; codecs=opus', ext: 'opus', category: 'audio' as const };
    await expect(toWav(garbage, sniffedAsOpus)).rejects.toThrow(UndecodableAudioError);
    await expect(toWav(garbage, sniffedAsOpus)).rejects.toThrow(/0 samples/);
  });
});

describe('toWav: cancellation', () => {
  it('does no work for a request that was already cancelled', async () => {
    await expect(convert(fixture('voice-440hz-2s.ogg'), { signal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
  });
});

describe('toWav: WAV', () => {
  it('passes a WAV through untouched', async () => {
    const wav = encodeWav(new Int16Array([0, 1000, -1000, 0]), 16_000);
    expect(await convert(wav)).toBe(wav);
  });
});

describe('toWav: other formats through ffmpeg', () => {
  // Needs an ffmpeg binary on PATH (apt-get install ffmpeg); the WASM path above does not.
  it.skipIf(!ffmpegAvailable)('converts MP3 to a 16 kHz mono WAV', async () => {
    expectSpeechWav(await convert(fixture('tone-440hz-1s.mp3')), 1);
  });

  it.skipIf(!ffmpegAvailable)('converts M4A/AAC to a 16 kHz mono WAV', async () => {
    expectSpeechWav(await convert(fixture('tone-440hz-1s.m4a')), 1);
  });

  it.skipIf(!ffmpegAvailable)('takes the sound track of a video file', async () => {
    expectSpeechWav(await convert(fixture('tiny.mp4')), 1);
  });

  it.skipIf(!ffmpegAvailable)('reports a file ffmpeg cannot decode as undecodable audio', async () => {
    const notReallyMp3 = { mime: 'audio/mpeg', ext: 'mp3', category: 'audio' as const };
    await expect(toWav(new Uint8Array(2000).fill(3), notReallyMp3)).rejects.toThrow(UndecodableAudioError);
  });

  it('throws TranscoderUnavailableError, saying what to tell the user, when ffmpeg is missing', async () => {
    const error = await convert(fixture('tone-440hz-1s.mp3'), { ffmpegPath: '/nonexistent/ffmpeg' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(TranscoderUnavailableError);
    expect((error as Error).message).toMatch(/voice note/);
    expect((error as Error).message).toMatch(/install ffmpeg/);
  });

  it('does not need ffmpeg for a voice note even when it is missing', async () => {
    expectSpeechWav(await convert(fixture('voice-440hz-2s.ogg'), { ffmpegPath: '/nonexistent/ffmpeg' }), 2);
  });
});
