import { OggOpusDecoder } from 'ogg-opus-decoder';

export interface DecodedAudio {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
}

/**
 * One WASM decoder for the whole process: compiling the module costs far more
 * than decoding a voice note. Its state is not reentrant, so decodes are run one
 * after another through `queue` (a 60 s note decodes in ~120 ms).
 */
let decoder: OggOpusDecoder | undefined;
let queue: Promise<unknown> = Promise.resolve();

async function sharedDecoder(): Promise<OggOpusDecoder> {
  if (!decoder) decoder = new OggOpusDecoder();
  await decoder.ready;
  return decoder;
}

/** Decodes a whole OGG/Opus file to planar float samples at 48 kHz. */
export function decodeOggOpus(bytes: Uint8Array): Promise<DecodedAudio> {
  const run = async (): Promise<DecodedAudio> => {
    const instance = await sharedDecoder();
    try {
      const { channelData, samplesDecoded, sampleRate } = await instance.decodeFile(bytes);
      return { channelData, samplesDecoded, sampleRate };
    } catch (error) {
      // A failed decode may leave the WASM state half-written: start afresh next time.
      instance.free();
      decoder = undefined;
      throw error;
    }
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}
