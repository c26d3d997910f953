/** Helpers for the media tests: fixtures, test attachments and a WAV reader. */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { prepareAttachments, type PrepareContext } from '../../../../src/gateway/media/prepare.js';
import { readCapped } from '../../../../src/contract.js';
import type { AttachmentKind, InboundAttachment } from '../../../../src/contract.js';
import type { UploadInput } from '../../../../src/upstream/api.js';

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../../fixtures/media/${name}`, import.meta.url)));
}

/** True when an ffmpeg binary answers on PATH. */
export const ffmpegAvailable = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0;

export interface TestAttachment extends InboundAttachment {
  /** The maxBytes of each fetch call, in order; empty when the bytes were never requested. */
  readonly fetchCalls: number[];
}

/** An attachment whose fetch honours maxBytes like a real adapter and records that it was called. */
export function attachment(
  kind: AttachmentKind,
  bytes: Uint8Array,
  declared: { size?: number; mimeType?: string; durationSeconds?: number } = {},
): TestAttachment {
  const fetchCalls: number[] = [];
  return {
    kind,
    size: 'size' in declared ? declared.size : bytes.length,
    mimeType: declared.mimeType,
    durationSeconds: declared.durationSeconds,
    fetchCalls,
    async fetch({ maxBytes }) {
      fetchCalls.push(maxBytes);
      return readCapped(chunksOf(bytes, 1024), maxBytes);
    },
  };
}

async function* chunksOf(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

/** Stands in for the HTTP upload: keeps what it received and hands out ids 101, 102, ... */
export function recordingUpload(): {
  upload: (file: UploadInput) => Promise<{ fileId: number }>;
  received: UploadInput[];
} {
  const received: UploadInput[] = [];
  return {
    received,
    upload: async (file) => {
      received.push(file);
      return { fileId: 100 + received.length };
    },
  };
}

export interface WavInfo {
  riff: string;
  wave: string;
  fmt: string;
  data: string;
  riffSize: number;
  audioFormat: number;
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bitsPerSample: number;
  dataBytes: number;
  samples: Int16Array;
}

/** Reads a canonical 44-byte-header PCM WAV. */
export function readWav(bytes: Uint8Array): WavInfo {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (offset: number): string => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  const dataBytes = view.getUint32(40, true);
  const samples = new Int16Array(dataBytes / 2);
  for (let i = 0; i < samples.length; i += 1) samples[i] = view.getInt16(44 + i * 2, true);
  return {
    riff: ascii(0),
    wave: ascii(8),
    fmt: ascii(12),
    data: ascii(36),
    riffSize: view.getUint32(4, true),
    audioFormat: view.getUint16(20, true),
    channels: view.getUint16(22, true),
    sampleRate: view.getUint32(24, true),
    byteRate: view.getUint32(28, true),
    blockAlign: view.getUint16(32, true),
    bitsPerSample: view.getUint16(34, true),
    dataBytes,
    samples,
  };
}

/** Frequency of a pure tone from its zero crossings (two per period), ignoring near-silence at the edges. */
export function toneFrequency(samples: Int16Array, sampleRate: number): number {
  let first = -1;
  let last = -1;
  let crossings = 0;
  for (let i = 1; i < samples.length; i += 1) {
    const before = samples[i - 1] ?? 0;
    const now = samples[i] ?? 0;
    if ((before < 0 && now >= 0) || (before >= 0 && now < 0)) {
      if (first < 0) first = i;
      last = i;
      crossings += 1;
    }
  }
  return (crossings - 1) / 2 / ((last - first) / sampleRate);
}

/** A prepare() with both uploads enabled and a generous download cap, and what it uploaded. */
export function preparing(overrides: Partial<PrepareContext> = {}) {
  const recorder = recordingUpload();
  const context: PrepareContext = {
    settings: { EnableUploadImage: true, EnablePushToTalk: true },
    capabilities: { maxDownloadBytes: 200 * 1024 * 1024 },
    upload: recorder.upload,
    ...overrides,
  };
  return {
    received: recorder.received,
    prepare: (attachments: InboundAttachment[]) => prepareAttachments(attachments, context),
  };
}
