/**
 * `chatbridge listings create <file>`: every listing of the file checked against the
 * Chatbot Service's RealEstateCreate rules before any is created, and every problem
 * of every listing reported at once (rather than one missing field per run).
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { bindFields, describeIssue } from '../service/validation/bind.js';
import { listingCreateSchema } from '../service/validation/listing.js';
import type { ListingInput } from '../upstream/api.js';

const FIELDS = Object.keys(listingCreateSchema.shape);

/** As the service says it, except that a missing choice is "required" rather than "must be one of". */
function describeListingIssue(issue: z.core.$ZodIssue): string {
  const sentence = describeIssue(issue);
  return issue.code === 'invalid_value' && issue.input === undefined
    ? sentence.replace(' must be one of ', ' is required: one of ')
    : sentence;
}

/** Stands in for the chatbot's serial number while the file is checked (the command adds the real one, from --bot). */
const SERIAL_NUMBER_CHECKED_ELSEWHERE = 'serial-number';

/** The listings of a JSON file (one object or an array), without SerialNumber; throws listing every problem. */
export async function readListingFile(file: string): Promise<Omit<ListingInput, 'SerialNumber'>[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${file} (${error.code === 'ENOENT' ? 'no such file' : error.message}).`, {
      cause: error,
    });
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `${file} is not JSON (${(error as Error).message}); it holds one listing object or an array of them.`,
      { cause: error },
    );
  }
  const listings = Array.isArray(parsed) ? parsed : [parsed];
  const problems: string[] = [];
  listings.forEach((listing, index) => {
    const where = listings.length > 1 ? `listing ${index + 1}: ` : '';
    if (typeof listing !== 'object' || listing === null || Array.isArray(listing)) {
      problems.push(`${where}not a JSON object.`);
      return;
    }
    try {
      const bound = bindFields(
        { ...(listing as Record<string, unknown>), SerialNumber: SERIAL_NUMBER_CHECKED_ELSEWHERE },
        FIELDS,
      );
      const result = listingCreateSchema.safeParse(bound, { reportInput: true });
      if (!result.success)
        problems.push(...result.error.issues.map((issue) => `${where}${describeListingIssue(issue)}`));
    } catch (error) {
      // bindFields refuses a field given twice in different cases.
      problems.push(`${where}${(error as Error).message}`);
    }
  });
  if (problems.length > 0) {
    throw new Error(
      `nothing was created; ${file} has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  return listings as Omit<ListingInput, 'SerialNumber'>[];
}
