/**
 * The peers section of BENCHMARKS.md: medians per contender, ratios against the
 * floors and Chat SDK, the issue's aims checked, what each contender did per
 * answer, and every incomplete run reported.
 */
import { CONTENDERS, type ContenderName } from './contenders.js';
import type { RunNumbers } from './measure.js';
import { PEERS_HEADING } from './section.js';

export interface ReportContext {
  command: string;
  date: string;
  machine: string;
  commit: string;
  chats: number;
  messages: number;
  rounds: number;
  redis: string;
}

type Measure =
  | 'answersPerSecond'
  | 'cpuMsPerAnswer'
  | 'apiCallsPerAnswer'
  | 'redisCommandsPerAnswer'
  | 'redisCommandsSentPerAnswer'
  | 'redisRoundTripsPerAnswer'
  | 'redisBytesPerChat'
  | 'peakRssMb'
  | 'idleRssMb';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const fmt = (value: number, digits = 2): string =>
  Number.isFinite(value) ? (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(digits)) : '–';

/** One row of a Markdown table. */
const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;

const CONTENDER_COLUMNS = [
  'contender',
  'Node',
  'answers/s',
  'CPU ms/answer',
  'Bot API calls/answer',
  'Redis round trips/answer',
  'Redis commands sent/answer',
  'Redis commands run/answer',
  'Redis KB/chat',
  'peak RSS',
  'idle RSS',
  'complete runs',
];

/** How the chatbridge contender is built and wired, said in the report's list of what was measured. */
const CHATBRIDGE_BUILD =
  'compiled by `npm run build` first, as the Docker image runs it; production wiring: queue, lock, dedupe, transcript, handoff check';

function medians(runs: RunNumbers[], name: ContenderName, node: string): Record<Measure, number> | undefined {
  const mine = runs.filter((run) => run.contender === name && run.node === node);
  if (mine.length === 0) return undefined;
  const of = (measure: Measure): number => median(mine.map((run) => run[measure]));
  return {
    answersPerSecond: of('answersPerSecond'),
    cpuMsPerAnswer: of('cpuMsPerAnswer'),
    apiCallsPerAnswer: of('apiCallsPerAnswer'),
    redisCommandsPerAnswer: of('redisCommandsPerAnswer'),
    redisCommandsSentPerAnswer: of('redisCommandsSentPerAnswer'),
    redisRoundTripsPerAnswer: of('redisRoundTripsPerAnswer'),
    redisBytesPerChat: of('redisBytesPerChat'),
    peakRssMb: of('peakRssMb'),
    idleRssMb: of('idleRssMb'),
  };
}

function perAnswer(counts: Map<string, number>, answers: number): string {
  return (
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `${name} ${fmt(n / Math.max(1, answers))}`)
      .join(', ') || 'none'
  );
}

export function peersMarkdown(runs: RunNumbers[], context: ReportContext): string {
  // Each contender ran on every one of these (bench:peers --node): every row, ratio and aim names its Node.
  const nodes = [...new Set(runs.map((run) => run.node))];
  const table = CONTENDERS.flatMap(({ name, label }) =>
    nodes.flatMap((node) => {
      const m = medians(runs, name, node);
      if (!m) return [];
      const mine = runs.filter((run) => run.contender === name && run.node === node);
      const complete = mine.filter((run) => !run.failure).length;
      return [
        row([
          label,
          node,
          fmt(m.answersPerSecond, 0),
          fmt(m.cpuMsPerAnswer),
          fmt(m.apiCallsPerAnswer),
          fmt(m.redisRoundTripsPerAnswer),
          fmt(m.redisCommandsSentPerAnswer),
          fmt(m.redisCommandsPerAnswer),
          fmt(m.redisBytesPerChat / 1024),
          `${fmt(m.peakRssMb, 0)} MB`,
          `${fmt(m.idleRssMb, 0)} MB`,
          `${complete}/${mine.length}`,
        ]),
      ];
    }),
  );

  const ratioRows: string[] = [];
  const aims: string[] = [];
  for (const node of nodes) {
    const cb = medians(runs, 'chatbridge', node);
    if (!cb) continue;
    for (const [name, label] of [
      ['grammy-send', 'the sendMessage floor'],
      ['grammy-edits', 'the send + 3 edits floor'],
      ['chat-sdk', 'Chat SDK, drafts'],
    ] as const) {
      const other = medians(runs, name, node);
      if (!other) continue;
      ratioRows.push(
        row([
          label,
          node,
          `${fmt(cb.cpuMsPerAnswer / other.cpuMsPerAnswer)}×`,
          `${fmt(cb.answersPerSecond / other.answersPerSecond)}×`,
          `${fmt(cb.peakRssMb / other.peakRssMb)}×`,
        ]),
      );
    }
    const send = medians(runs, 'grammy-send', node);
    const edits = medians(runs, 'grammy-edits', node);
    const sdk = medians(runs, 'chat-sdk', node);
    const aim = (what: string, value: string, met: boolean): string =>
      `| ${what} | ${node} | ${value} | ${met ? 'met' : '**missed**'} |`;
    aims.push(aim('CPU per answer ≤ 1.5 ms', `${fmt(cb.cpuMsPerAnswer)} ms`, cb.cpuMsPerAnswer <= 1.5));
    if (send)
      aims.push(
        aim(
          'CPU ≤ 3× the sendMessage floor',
          `${fmt(cb.cpuMsPerAnswer / send.cpuMsPerAnswer)}×`,
          cb.cpuMsPerAnswer <= 3 * send.cpuMsPerAnswer,
        ),
      );
    if (edits)
      aims.push(
        aim(
          'CPU ≤ 1.2× the send + 3 edits floor',
          `${fmt(cb.cpuMsPerAnswer / edits.cpuMsPerAnswer)}×`,
          cb.cpuMsPerAnswer <= 1.2 * edits.cpuMsPerAnswer,
        ),
      );
    if (sdk)
      aims.push(
        aim(
          'answers/s ≥ 3× Chat SDK drafts',
          `${fmt(cb.answersPerSecond / sdk.answersPerSecond)}×`,
          cb.answersPerSecond >= 3 * sdk.answersPerSecond,
        ),
      );
    // Three decimals: the process's periodic work (the sweep, a settings read every few seconds) counts too, a few thousandths per answer.
    aims.push(
      aim(
        '≤ 3 Redis round trips per answer (the periodic sweep and settings reads included)',
        fmt(cb.redisRoundTripsPerAnswer, 3),
        cb.redisRoundTripsPerAnswer <= 3,
      ),
    );
    aims.push(
      aim(
        '≤ 12 Redis commands per answer (#22; run by Redis)',
        fmt(cb.redisCommandsPerAnswer),
        cb.redisCommandsPerAnswer <= 12,
      ),
    );
  }

  const details = CONTENDERS.flatMap(({ name, label }) =>
    nodes.flatMap((node) => {
      const last = runs.filter((run) => run.contender === name && run.node === node).at(-1);
      if (!last) return [];
      const refused = last.failedCalls ? `; ${last.failedCalls} calls refused by the fake` : '';
      const otherMessages = last.otherMessages ? `; ${last.otherMessages} other bot messages` : '';
      return [
        `- **${label}**, Node ${node}, per answer (last run): Bot API ${perAnswer(last.callsByMethod, last.answers)}; ` +
          `Redis ${perAnswer(last.redisByCommand, last.answers)}${refused}${otherMessages}.`,
      ];
    }),
  );
  const failures = runs.flatMap((run, i) => {
    if (!run.failure) return [];
    const [summary, ...output] = run.failure.split('\n');
    return [
      `- run ${i + 1}, ${run.contender} on Node ${run.node}: ${summary}\n\n  \`\`\`\n  ${output.join('\n  ').slice(-1200)}\n  \`\`\``,
    ];
  });
  const ratioSection = ratioRows.length
    ? 'chatbridge against, on the same Node:\n\n| | Node | CPU per answer | answers/s | peak RSS |\n|---|---|---|---|---|\n' +
      `${ratioRows.join('\n')}\n`
    : '';
  const failureSection = failures.length
    ? `Incomplete runs (not hidden):\n\n${failures.join('\n')}\n`
    : 'Every run of every contender ended with every answer complete (final text equal to the 600 characters).\n';
  const perRun = runs.map((run, i) =>
    row([
      `${i + 1}`,
      run.contender,
      run.node,
      fmt(run.answersPerSecond, 0),
      fmt(run.cpuMsPerAnswer),
      fmt(run.redisRoundTripsPerAnswer),
      fmt(run.peakRssMb, 0),
      fmt(run.idleRssMb, 0),
      `${run.answers}/${run.expected}`,
    ]),
  );

  return `${PEERS_HEADING}

Written by \`${context.command}\` (\`bench/peers/run.ts\`) on ${context.date}, at commit ${context.commit}.
Machine: ${context.machine}. Redis: ${context.redis}.

Workload: one fake Bot API (\`fakes/telegram\`, flood limits off, a fresh one per run) and one Redis (emptied before each run);
${context.chats} private chats × ${context.messages} messages, every chat at once, each user sending the next message when the
previous answer is complete; the answer is the same 600 characters in 10 chunks for everyone (chatbridge reads them from a
Chatbot Service stand-in streaming them over HTTP with no pause; the others have them in memory). Contenders alternated
(A B C D × ${context.rounds} rounds${nodes.length > 1 ? `, each contender on ${nodes.join(' then ')} in turn` : ''}), each run a fresh process; medians of
the runs of each contender on each Node.

- answers/s: first message sent → last complete answer seen by the users (who look every 10 ms).
- CPU ms/answer: utime + stime of the bot process (/proc/<pid>/stat), from the first message to 1 s after the last answer.
- Bot API calls/answer: every call naming a chat, in the fake's log (refused ones included).
- Redis round trips/answer: chatbridge's counted in its process (\`bench/peers/count-redis-requests.cjs\`, preloaded: a command sent
  alone, a pipeline, a MULTI…EXEC and a script are one each; a command auto-pipelined with others' is one of its own); the others'
  from MONITOR (MULTI…EXEC once, EVAL/EVALSHA once, any other command once: they send no pipelines).
- Redis commands sent/answer: from MONITOR, every command the process sent (MULTI and EXEC included; what a script calls not): each
  one the client encodes and whose reply it parses. Commands run/answer: INFO commandstats after CONFIG RESETSTAT (every command
  Redis ran: MULTI and EXEC, and those inside transactions and scripts).
- Redis KB/chat: used_memory after the run (and 3 s idle) less before it, per chat.
- peak RSS: VmHWM of the process at the end of the run (start-up included); idle RSS: VmRSS 3 s after the run.
- chatbridge runs as \`bin/chatbridge.js start\` (${CHATBRIDGE_BUILD}),
  with TELEGRAM_MESSAGES_PER_SECOND lifted (the fake has no flood limits and the peers do not pace); grammY (with
  @grammyjs/runner) and Chat SDK 4.41.1 (\`chat\`, \`@chat-adapter/telegram\` polling with \`nativeStreaming\`,
  \`@chat-adapter/state-redis\`, concurrency "queue") run as plain JavaScript (bench/peers/contenders/).

${row(CONTENDER_COLUMNS)}
|---|---|---|---|---|---|---|---|---|---|---|---|
${table.join('\n')}

${ratioSection}
${aims.length ? `Aims of issues #12 and #22 on this run:\n\n| aim | Node | chatbridge | |\n|---|---|---|---|\n${aims.join('\n')}\n` : ''}
What each did:

${details.join('\n')}

${failureSection}
<details><summary>Each run</summary>

| run | contender | Node | answers/s | CPU ms/answer | Redis round trips/answer | peak RSS MB | idle RSS MB | complete answers |
|---|---|---|---|---|---|---|---|---|
${perRun.join('\n')}

</details>
`;
}
