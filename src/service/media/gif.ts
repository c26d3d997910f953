/**
 * Whether a GIF holds more than one frame. file-type tells a GIF from other
 * formats but not a still one from an animation, so this walks the GIF block
 * structure (GIF89a spec §17–§27) and counts image descriptors.
 */
export function isAnimatedGif(bytes: Uint8Array): boolean {
  if (bytes.length < 13) return false;
  let offset = 13;
  const flags = bytes[10]!;
  if (flags & 0x80) offset += 3 * (1 << ((flags & 0x07) + 1)); // global colour table

  const skipSubBlocks = (): void => {
    while (offset < bytes.length) {
      const size = bytes[offset]!;
      offset += 1;
      if (size === 0) return;
      offset += size;
    }
  };

  let frames = 0;
  while (offset < bytes.length) {
    const introducer = bytes[offset]!;
    if (introducer === 0x3b) break; // trailer
    if (introducer === 0x21) {
      offset += 2; // introducer + label
      skipSubBlocks();
    } else if (introducer === 0x2c) {
      frames += 1;
      if (frames > 1) return true;
      const localFlags = bytes[offset + 9] ?? 0;
      offset += 10;
      if (localFlags & 0x80) offset += 3 * (1 << ((localFlags & 0x07) + 1));
      offset += 1; // LZW minimum code size
      skipSubBlocks();
    } else {
      break; // corrupt: treat what we saw as final
    }
  }
  return false;
}
