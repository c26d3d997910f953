/**
 * Reading the fields of a Graph request body as Meta does: required and optional strings with
 * length limits counted in characters, objects, and no keys beyond the ones a parameter has.
 */
import { type CloudApiError, invalidParameter, notValid } from './errors.js';

/**
 * Meta's pages give limits in "characters" without saying how they count them. The fake counts
 * code points (an emoji is one, not two UTF-16 units): an adapter that splits by JS length stays
 * within it either way, and the fake never refuses what a user would call 4,096 characters.
 */
export function characters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function object(value: unknown, name: string): Json {
  if (value === undefined) throw invalidParameter(`The parameter ${name} is required.`);
  if (!isObject(value)) throw invalidParameter(`Param ${name} must be an object.`);
  return value;
}

export function onlyKeys(value: Json, allowed: readonly string[], name: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw invalidParameter(`Unexpected key "${key}" on param "${name}".`);
  }
}

/** `error`: which code a broken rule answers (100 for the message's own fields, 131009 for interactive ones). */
export function text(
  value: unknown,
  name: string,
  options: { max?: number; optional?: boolean; error?: (details: string) => CloudApiError } = {},
): string | undefined {
  const fail = options.error ?? invalidParameter;
  if (value === undefined && options.optional) return undefined;
  if (value === undefined || value === '') throw fail(`The parameter ${name} is required.`);
  if (typeof value !== 'string') throw fail(`Param ${name} must be a string.`);
  if (options.max !== undefined && characters(value) > options.max)
    throw fail(`Param ${name} must be at most ${options.max} characters long.`);
  return value;
}

export function required(value: unknown, name: string, options: { max?: number } = {}): string {
  return text(value, name, options) as string;
}

/** Interactive limits (and missing interactive texts) answer 131009, as the brief and Meta's pages have it. */
export function limited(value: unknown, name: string, max: number): string {
  return text(value, name, { max, error: notValid }) as string;
}
