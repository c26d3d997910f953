/**
 * Counts what one ioredis connection sends: its commands, by wrapping its `sendCommand`
 * (every command goes through it, pipelined or not), and its round trips
 * (ioredis-round-trips.cjs): a pipeline or a MULTI…EXEC block is one, any other command
 * one. Auto-pipelining may put commands of different conversations in one write, but
 * each still waits for its own reply before the gateway goes on, so it counts as a
 * round trip of its message.
 */
import * as ioredis from 'ioredis';
import type { Redis } from 'ioredis';
import { countRoundTrips } from './ioredis-round-trips.cjs';

export interface RedisCount {
  commands: number;
  roundTrips: number;
  /** Per command name, MULTI/EXEC included. */
  byName: Map<string, number>;
}

export interface RedisCounter {
  /** Counts since the last reset. */
  snapshot(): RedisCount;
  reset(): void;
  /** Puts the original sendCommand back. */
  detach(): void;
}

export function countRedisCommands(client: Redis): RedisCounter {
  let count: RedisCount = { commands: 0, roundTrips: 0, byName: new Map() };
  const original = client.sendCommand;
  // Every command, by name (those of pipelines included): what Redis runs for this client.
  const patched: Redis['sendCommand'] = function (this: Redis, ...args) {
    const name = args[0].name.toLowerCase();
    count.byName.set(name, (count.byName.get(name) ?? 0) + 1);
    if (name !== 'multi' && name !== 'exec' && name !== 'discard') count.commands++;
    return original.apply(this, args);
  };
  client.sendCommand = patched;
  // The round trips, by the rule the peers benchmark uses too (ioredis-round-trips.cjs).
  const undo = countRoundTrips(
    ioredis,
    (n) => {
      count.roundTrips += n;
    },
    (redis) => redis === client,
  );
  return {
    snapshot: () => ({ ...count, byName: new Map(count.byName) }),
    reset: () => {
      count = { commands: 0, roundTrips: 0, byName: new Map() };
    },
    detach: () => {
      client.sendCommand = original;
      undo();
    },
  };
}
