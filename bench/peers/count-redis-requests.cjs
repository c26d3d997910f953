/*
 * Preloaded into chatbridge by `npm run bench:peers` (node --require): counts its Redis round trips
 * in the process (bench/support/ioredis-round-trips.cjs), which MONITOR cannot (it shows a pipeline
 * of three commands as three). The other contenders do not use ioredis; theirs come from MONITOR.
 *
 * BENCH_REDIS_REQUESTS_FILE: where the count is written on SIGUSR2 (the bench reads it before and
 * after the measured part of a run). CommonJS: `--require` runs it before the ES module main.
 */
'use strict';
const { writeFileSync } = require('node:fs');
const { countRoundTrips } = require('../support/ioredis-round-trips.cjs');

const file = process.env.BENCH_REDIS_REQUESTS_FILE;
let roundTrips = 0;
countRoundTrips(require('ioredis'), (n) => {
  roundTrips += n;
});
process.on('SIGUSR2', () => {
  if (file) writeFileSync(file, `${roundTrips}\n`);
});
