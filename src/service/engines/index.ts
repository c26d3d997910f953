import type { EngineOptions } from '../options.js';
import { BuiltinEngine } from './builtin.js';
import { OpenAiEngine } from './openai.js';
import type { AnswerEngine } from './types.js';

export type { AnswerEngine, AnswerRequest, EngineOutcome } from './types.js';

export function createEngine(options: EngineOptions = { kind: 'builtin' }): AnswerEngine {
  return options.kind === 'openai' ? new OpenAiEngine(options) : new BuiltinEngine();
}
