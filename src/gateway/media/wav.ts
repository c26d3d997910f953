/** 16-bit PCM WAV writing and the 48 kHz → 16 kHz mono conversion for decoded Opus. */

const WAV_HEADER_BYTES = 44;

/** Wraps mono 16-bit little-endian samples in a canonical 44-byte RIFF/WAVE header. */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array {
  const dataBytes = samples.length * 2;
  const out = new Uint8Array(WAV_HEADER_BYTES + dataBytes);
  const view = new DataView(out.buffer);
  const ascii = (offset: number, text: string): void => {
    for (let i = 0; i < text.length; i += 1) out[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size for PCM
  view.setUint16(20, 1, true); // audio format 1 = PCM
  view.setUint16(22, 1, true); // channels
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i += 1) view.setInt16(WAV_HEADER_BYTES + i * 2, samples[i] ?? 0, true);
  return out;
}

/** Wraps raw s16le mono bytes (ffmpeg's output) in a WAV header. */
export function wavFromPcm16le(pcm: Uint8Array, sampleRate: number): Uint8Array {
  const whole = pcm.length - (pcm.length % 2);
  const samples = new Int16Array(whole / 2);
  const view = new DataView(pcm.buffer, pcm.byteOffset, whole);
  for (let i = 0; i < samples.length; i += 1) samples[i] = view.getInt16(i * 2, true);
  return encodeWav(samples, sampleRate);
}

/**
 * Mixes planar float channels down to mono and decimates by an integer factor,
 * averaging each group of input samples. For 48 → 16 kHz speech the 3-tap average
 * is low-pass enough (no audible aliasing in voice notes) and ~20× faster than a
 * windowed-sinc resampler; the service only transcribes/understands speech.
 */
export function downmixAndDecimate(channels: Float32Array[], inputRate: number, outputRate: number): Int16Array {
  if (inputRate % outputRate !== 0) {
    throw new RangeError(`Cannot decimate ${inputRate} Hz to ${outputRate} Hz: the ratio must be a whole number.`);
  }
  if (channels.length === 0) return new Int16Array(0);
  const factor = inputRate / outputRate;
  const inputLength = Math.min(...channels.map((channel) => channel.length));
  const output = new Int16Array(Math.floor(inputLength / factor));
  const scale = 1 / (factor * channels.length);
  for (let o = 0; o < output.length; o += 1) {
    let sum = 0;
    const start = o * factor;
    for (const channel of channels) {
      for (let k = 0; k < factor; k += 1) sum += channel[start + k] ?? 0;
    }
    const value = Math.max(-1, Math.min(1, sum * scale));
    output[o] = Math.round(value * 32767);
  }
  return output;
}
