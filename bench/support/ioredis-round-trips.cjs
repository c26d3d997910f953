/*
 * Counts the round trips of ioredis clients as their callers wait on them: a command sent alone is
 * one; a pipeline the code built (pipeline() or multi()) is one however many commands it holds; a
 * pipeline ioredis built itself by auto-pipelining (enableAutoPipelining: commands of different
 * callers issued in one tick, written together) is one per command, since each caller waits for
 * its own reply. MONITOR sees none of this: a pipeline of three looks like three round trips.
 *
 * Used by bench/support/redis-counter.ts (one client of the gateway's own benchmark) and preloaded
 * into chatbridge by bench:peers (bench/peers/count-redis-requests.cjs). CommonJS, so that a
 * `node --require` preload can use it as well as the TypeScript benches.
 */
'use strict';

/**
 * Patches ioredis' Redis and Pipeline prototypes; `count(n, name)` is told of each round trip
 * (`name`: the command's, for one sent alone) of the clients `accept` takes. Returns the undo.
 */
function countRoundTrips(ioredis, count, accept = () => true) {
  const { Redis, Pipeline } = ioredis;
  const sendCommand = Redis.prototype.sendCommand;
  const exec = Pipeline.prototype.exec;
  // A MULTI's exec may run the pipeline's exec twice (transaction.js); it is one round trip.
  const counted = new WeakSet();
  Redis.prototype.sendCommand = function countedSendCommand(command, stream, ...rest) {
    // A pipeline's commands come with its stream: the pipeline was counted as it was executed.
    if (!(stream && stream.isPipeline) && accept(this)) count(1, command.name);
    return sendCommand.call(this, command, stream, ...rest);
  };
  Pipeline.prototype.exec = function countedExec(...args) {
    if (!counted.has(this) && accept(this.redis)) {
      counted.add(this);
      // autoPipelining.js marks its pipelines with a symbol described "exec".
      const automatic = Object.getOwnPropertySymbols(this).some((symbol) => symbol.description === 'exec');
      count(automatic ? this._queue.length : 1, undefined);
    }
    return exec.apply(this, args);
  };
  return () => {
    Redis.prototype.sendCommand = sendCommand;
    Pipeline.prototype.exec = exec;
  };
}

module.exports = { countRoundTrips };
