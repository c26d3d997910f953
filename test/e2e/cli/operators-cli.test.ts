/**
 * `chatbridge operators …` as an admin runs it: processes against a real `chatbridge start` with ADMIN_TOKEN (the
 * break-glass key the first admin is added with), on real Redis. The first admin, an operator of one chatbot, the
 * list, a role changed, the audit log of it all, a removal, and a removal of an address that is no operator's,
 * refused on stderr with a non-zero exit.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatbridge, type ChatbridgeProcess } from '../../support/chatbridge-process.js';

const CLI = join(import.meta.dirname, '../../../bin/chatbridge.js');
const ADMIN_TOKEN = 'operators-cli-admin-token-0123456789';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('chatbridge operators, against a running gateway', () => {
  let gateway: ChatbridgeProcess;

  beforeAll(async () => {
    gateway = await startChatbridge({ ADMIN_TOKEN });
  }, 60_000);
  afterAll(async () => {
    await gateway?.cleanup();
  });

  /** `chatbridge operators <args>` with the gateway's port, these settings (default: the admin token), console off. */
  const operators = (args: string[], env: Record<string, string> = { ADMIN_TOKEN }): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [CLI, 'operators', ...args],
        {
          env: {
            PATH: process.env.PATH,
            CHATBRIDGE_CONSOLE: 'off',
            PORT: String(gateway.port),
            ...env,
          },
          timeout: 60_000,
        },
        (error, stdout, stderr) => {
          resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
        },
      );
    });

  it('adds the first admin and an operator, lists them, changes a role, removes one, and audits each step', async () => {
    const admin = await operators(['add', 'Bea@Example.com', '--name', 'Bea Admin', '--role', 'admin']);
    expect(admin.stdout).toBe('Added Bea Admin (bea@example.com): an admin of every chatbot.\n');
    expect(admin.code).toBe(0);
    const operator = await operators(['add', 'ana@example.com', '--name', 'Ana Lima', '--bots', 'main']);
    expect(operator.stdout).toBe('Added Ana Lima (ana@example.com): an operator of chatbot main.\n');
    expect(operator.code).toBe(0);

    const list = await operators(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n').map((line) => line.split(/\s{2,}/))).toEqual([
      ['NAME', 'E-MAIL', 'ROLE', 'CHATBOTS', 'SESSIONS'],
      ['Ana Lima', 'ana@example.com', 'operator', 'main', '0'],
      ['Bea Admin', 'bea@example.com', 'admin', 'all', '0'],
      [''],
    ]);

    const promoted = await operators(['role', 'ana@example.com', 'admin']);
    expect(promoted.stdout).toBe('Ana Lima (ana@example.com) is now an admin of every chatbot; no session was open.\n');
    expect(promoted.code).toBe(0);

    const removed = await operators(['remove', 'ana@example.com']);
    expect(removed.stdout).toBe('Removed Ana Lima (ana@example.com); no session was open.\n');
    expect(removed.code).toBe(0);

    const audit = await operators(['audit']);
    expect(audit.code).toBe(0);
    const lines = audit.stdout.trimEnd().split('\n');
    const by = 'by the admin token';
    const from = '(from 127.0.0.1)';
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z {2}operator-removed {2}/);
    expect(lines.map((line) => line.slice(26))).toEqual([
      `operator-removed  ${by} → ana@example.com: Ana Lima, admin, every chatbot ${from}`,
      `operator-changed  ${by} → ana@example.com: role operator → admin; chatbots main → all ${from}`,
      `operator-added  ${by} → ana@example.com: Ana Lima, operator, bots main ${from}`,
      `operator-added  ${by} → bea@example.com: Bea Admin, admin, every chatbot ${from}`,
    ]);
  }, 240_000);

  it("refuses to remove an address that is no operator's, saying so on stderr, with a non-zero exit", async () => {
    const run = await operators(['remove', 'nobody@example.com']);
    expect(run.stderr).toContain('No operator nobody@example.com; `chatbridge operators list` shows them.');
    expect(run.stdout).toBe('');
    expect(run.code).toBe(1);
  }, 60_000);

  it('refuses a chatbot the gateway does not serve, and a role or limit that is not one, naming them', async () => {
    const bots = await operators(['add', 'carla@example.com', '--bots', 'main,support']);
    expect(bots.stderr).toContain('No bot "support" is configured; the bots are "main".');
    expect(bots.code).toBe(1);
    const role = await operators(['role', 'bea@example.com', 'owner']);
    expect(role.stderr).toContain('<role> must be operator or admin (got "owner").');
    expect(role.code).toBe(1);
    const limit = await operators(['audit', '--limit', 'all']);
    expect(limit.stderr).toContain('--limit must be a whole number from 1 to 10000 (got "all").');
    expect(limit.code).toBe(1);
  }, 240_000);

  it('needs the admin token: without it, says which setting to set', async () => {
    const run = await operators(['list'], {});
    expect(run.stderr).toContain("Set ADMIN_TOKEN (admin.token) to the running gateway's admin token.");
    expect(run.code).toBe(1);
  }, 60_000);
});
