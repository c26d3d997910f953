import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const CLI = join(import.meta.dirname, '../../bin/chatbridge.js');

/** Runs `chatbridge doctor` as a process with these settings; resolves with its output and exit code. */
export async function runDoctor(env: Record<string, string>): Promise<{ output: string; code: number }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'doctor'], {
      env: { PATH: process.env.PATH, CHATBRIDGE_CONSOLE: 'off', ...env },
    });
    return { output: stdout, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    return { output: failed.stdout, code: failed.code };
  }
}
