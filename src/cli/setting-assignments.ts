/**
 * `chatbridge settings set KEY=VALUE …`: each assignment checked against the Chatbot
 * Service's settings (the field rules of the Edit operation, which the embedded service
 * enforces) before anything is sent, and every problem reported at once.
 */
import type { z } from 'zod';
import { describeIssue } from '../service/validation/bind.js';
import { settingsShape } from '../service/validation/settings.js';
import type { ChatbotSettings } from '../upstream/api.js';

type SettingName = keyof typeof settingsShape;
type SettingValue = string | number | boolean;

export const SETTING_NAMES = Object.keys(settingsShape) as SettingName[];
/** The service binds field names case-insensitively; so does the CLI, and then writes them as the service names them. */
const BY_LOWER_CASE = new Map(SETTING_NAMES.map((name) => [name.toLowerCase(), name]));

/** Thrown with every problem of the command line, one per line. */
export class SettingAssignmentError extends Error {}

/**
 * The typed values a KEY=VALUE may mean, in the order tried: the text itself (Model=1
 * is a string), then a number, then true/false, so `Temperature=1` and
 * `EnableUploadImage=true` are typed as their setting wants.
 */
function candidates(raw: string): SettingValue[] {
  const typed: SettingValue[] = [raw];
  if (/^-?\d+(\.\d+)?$/.test(raw)) typed.push(Number(raw));
  if (raw === 'true' || raw === 'false') typed.push(raw === 'true');
  return typed;
}

/** The first reading of `raw` the setting accepts, or the reason the most specific one fails. */
function typedValue(name: SettingName, raw: string): { value: SettingValue } | { error: string } {
  const schema: z.ZodType = settingsShape[name];
  let error = '';
  for (const candidate of candidates(raw)) {
    const result = schema.safeParse(candidate, { reportInput: true });
    if (result.success) return { value: candidate };
    error = describeIssue({ ...result.error.issues[0]!, path: [name] });
  }
  return { error };
}

/** Names that share a prefix or contain the typed name: a hint for a typo, not a search engine. */
function closeNames(typed: string): SettingName[] {
  const lower = typed.toLowerCase();
  return SETTING_NAMES.filter((name) => {
    const candidate = name.toLowerCase();
    return candidate.includes(lower) || lower.includes(candidate) || candidate.slice(0, 5) === lower.slice(0, 5);
  }).slice(0, 3);
}

/** `KEY=VALUE` pairs → the settings they set, typed; throws SettingAssignmentError listing every problem. */
export function parseSettingAssignments(assignments: readonly string[]): Partial<ChatbotSettings> {
  const problems: string[] = [];
  const changes: Record<string, SettingValue> = {};
  let unknownName = false;
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) {
      problems.push(`"${assignment}" is not KEY=VALUE (e.g. WelcomeMessage="Hi there").`);
      continue;
    }
    const typedName = assignment.slice(0, eq);
    const name = BY_LOWER_CASE.get(typedName.toLowerCase());
    if (!name) {
      unknownName = true;
      const close = closeNames(typedName);
      problems.push(
        `${typedName} is not a chatbot setting${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}.`,
      );
      continue;
    }
    if (name in changes) {
      problems.push(`${name} is given twice; give it once.`);
      continue;
    }
    const typed = typedValue(name, assignment.slice(eq + 1));
    if ('error' in typed) problems.push(typed.error);
    else changes[name] = typed.value;
  }
  if (problems.length > 0) {
    const list = problems.map((problem) => `  - ${problem}`).join('\n');
    const names = unknownName ? `\nThe settings are: ${SETTING_NAMES.join(', ')}.` : '';
    throw new SettingAssignmentError(
      `nothing was changed; fix ${problems.length === 1 ? 'this' : `these ${problems.length}`} and run it again:\n${list}${names}`,
    );
  }
  return changes as Partial<ChatbotSettings>;
}
