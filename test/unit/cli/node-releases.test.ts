import { describe, expect, it } from 'vitest';
import { checkNodeRelease, NODE_END_OF_LIFE } from '../../../src/cli/node-releases.js';

const on = (day: string) => new Date(`${day}T12:00:00Z`);

describe("doctor's Node release check", () => {
  it('knows the end of life of the lines chatbridge has run on', () => {
    expect(NODE_END_OF_LIFE[20]).toBe('2026-04-30');
    expect(NODE_END_OF_LIFE[22]).toBe('2027-04-30');
    expect(NODE_END_OF_LIFE[24]).toBe('2028-04-30');
  });

  it('warns on a Node past its end of life, saying when it ended and where to move', () => {
    expect(checkNodeRelease('v20.20.2', on('2026-11-27'))).toEqual({
      status: 'warn',
      detail:
        'Node v20.20.2 is past its end of life (2026-04-30): no more security fixes; move to Node 24 (LTS, supported until 2028-04-30)',
    });
  });

  it('warns from its last day on: the line gets no release after it', () => {
    expect(checkNodeRelease('v20.19.0', on('2026-04-30')).status).toBe('warn');
    expect(checkNodeRelease('v20.19.0', on('2026-04-29'))).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('in 1 day;'),
    });
  });

  it('warns ahead of the end of life, in time to plan the move', () => {
    expect(checkNodeRelease('v22.23.3', on('2027-03-01'))).toEqual({
      status: 'warn',
      detail:
        'Node v22.23.3 reaches its end of life on 2027-04-30, in 60 days; move to Node 24 (LTS, supported until 2028-04-30)',
    });
  });

  it('passes a supported line, saying until when', () => {
    expect(checkNodeRelease('v24.21.0', on('2026-11-27'))).toEqual({
      status: 'ok',
      detail: 'Node v24.21.0, supported until 2028-04-30',
    });
    expect(checkNodeRelease('v22.23.3', on('2026-11-27')).status).toBe('ok');
  });

  it('warns on a line older than any in the table, and passes one newer than the table', () => {
    expect(checkNodeRelease('v16.20.2', on('2026-11-27'))).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/past its end of life/),
    });
    expect(checkNodeRelease('v26.12.1', on('2026-11-27'))).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/newer than/),
    });
  });

  it('at the end of the newest LTS line it knows, asks for a newer one', () => {
    expect(checkNodeRelease('v24.21.0', on('2028-05-01')).detail).toMatch(
      /past its end of life \(2028-04-30\).*move to a newer LTS line$/,
    );
  });
});
