import { z } from 'zod';
import { badRequest } from '../envelope.js';

/**
 * Case-insensitive binding, as the hosted (.NET) service does: `serialnumber`,
 * `SerialNumber` and `serialNumber` all land on the canonical name. Nulls count
 * as absent (an optional field sent as null is simply not set); unknown fields
 * are ignored.
 */
export function bindFields(input: Record<string, unknown>, canonical: readonly string[]): Record<string, unknown> {
  const byLower = new Map(canonical.map((name) => [name.toLowerCase(), name]));
  const bound: Record<string, unknown> = {};
  const seenAs = new Map<string, string>();
  for (const [key, value] of Object.entries(input)) {
    const name = byLower.get(key.toLowerCase());
    if (name === undefined || value === null) continue;
    const earlier = seenAs.get(name);
    if (earlier !== undefined) throw badRequest(`${name} is given twice (as "${earlier}" and "${key}"); send it once.`);
    seenAs.set(name, key);
    bound[name] = value;
  }
  return bound;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A zod object whose field names bind case-insensitively (for nested objects such as ExtensionColumn). */
export function looseCaseObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const names = Object.keys(shape);
  return z.preprocess((value) => (isPlainObject(value) ? bindFields(value, names) : value), z.object(shape));
}

const ARTICLES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (name, part) => (typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${String(part)}` : String(part)),
    '',
  );
}

/** One clear sentence naming the field, from zod's first issue. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const field = fieldName(issue.path) || 'The request body';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${field} is required.`;
      return `${field} must be ${ARTICLES[issue.expected] ?? issue.expected}.`;
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'too_small':
      if (issue.origin === 'string') return `${field} must not be empty.`;
      if (issue.origin === 'array') return `${field} must hold at least ${String(issue.minimum)} item(s).`;
      return `${field} must be at least ${String(issue.minimum)}.`;
    case 'too_big':
      if (issue.origin === 'string') return `${field} must be at most ${String(issue.maximum)} characters long.`;
      if (issue.origin === 'array') return `${field} must hold at most ${String(issue.maximum)} item(s).`;
      return `${field} must be at most ${String(issue.maximum)}.`;
    default:
      // Custom checks write their own sentence, starting with the field name.
      return issue.message.startsWith(field) || !issue.path.length ? issue.message : `${field}: ${issue.message}`;
  }
}

/** Binds the body case-insensitively to the schema's fields, then validates; throws a 400 naming the field. */
export function parseBody<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  body: unknown,
): z.infer<z.ZodObject<Shape>> {
  if (body === undefined) body = {};
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object.');
  const result = schema.safeParse(bindFields(body, Object.keys(schema.shape)), { reportInput: true });
  if (!result.success) throw badRequest(describeIssue(result.error.issues[0]!));
  return result.data;
}
