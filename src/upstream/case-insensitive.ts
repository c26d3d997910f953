import { z } from 'zod';

/**
 * The service (apparently .NET) spells the same field several ways across
 * operations and versions (`messageid`/`MessageID`, `Data`/`data`), so every
 * object we read is matched to its documented spelling case-insensitively.
 */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of `name` in `source`, preferring the exact spelling, else any casing. */
export function readField(source: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(source, name)) return source[name];
  const wanted = name.toLowerCase();
  for (const key of Object.keys(source)) {
    if (key.toLowerCase() === wanted) return source[key];
  }
  return undefined;
}

/** A copy of `source` holding only `names`, each under its documented spelling. */
export function canonicalizeKeys(source: unknown, names: readonly string[]): unknown {
  if (!isPlainObject(source)) return source;
  const lowerToKey = new Map<string, string>();
  for (const key of Object.keys(source)) {
    const lower = key.toLowerCase();
    if (!lowerToKey.has(lower)) lowerToKey.set(lower, key);
  }
  const result: Record<string, unknown> = {};
  for (const name of names) {
    const key = Object.hasOwn(source, name) ? name : lowerToKey.get(name.toLowerCase());
    if (key !== undefined) result[name] = source[key];
  }
  return result;
}

/** `z.object(shape)` that accepts the shape's keys in any casing. */
export function caseInsensitiveObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const names = Object.keys(shape);
  return z.preprocess((value) => canonicalizeKeys(value, names), z.object(shape));
}

/** An integer, also when sent as a numeric string (ids travel both ways in this API). */
export const intLike = z.union([
  z.number().int(),
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'expected an integer')
    .transform(Number),
]);

/** A string, also when sent as a number (ids, numeric listing fields). */
export const stringLike = z.union([z.string(), z.number().transform(String)]);
