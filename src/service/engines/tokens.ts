import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

let encoder: Tiktoken | undefined;

/** cl100k_base token count; the ranks ship inside js-tiktoken and are decoded once, on first use. */
export function countTokens(text: string): number {
  if (text === '') return 0;
  encoder ??= new Tiktoken(cl100kBase);
  return encoder.encode(text).length;
}
