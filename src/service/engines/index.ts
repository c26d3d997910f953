import type { EngineOptions } from '../options.js';
import { BuiltinEngine } from './builtin.js';
import { OpenAiEngine } from './openai.js';
import type { AnswerEngine } from './types.js';

export type { AnswerEngine, AnswerRequest, EngineOutcome } from './types.js';
export { DEFAULT_TOKENS_PER_SECOND } from './pace.js';

export function createEngine(options: EngineOptions = { kind: 'builtin' }): AnswerEngine {
  if (options.kind === 'openai') return new OpenAiEngine(options);
  return new BuiltinEngine(options.tokensPerSecond === undefined ? {} : { tokensPerSecond: options.tokensPerSecond });
}
