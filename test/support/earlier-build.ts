/**
 * An earlier version of chatbridge, built from git, for the tests of a rolling upgrade (an earlier and a current
 * process on one Redis): the commit's tree is extracted into a folder under the OS's temp dir, given this checkout's
 * node_modules (a symlink: the commit's package-lock.json must be this checkout's, which `build` checks), and emitted
 * as `npm run build:emit` does, so that its bin/chatbridge.js runs the compiled build. Built once per commit: later runs
 * (and other test files) find the folder and reuse it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * The last version with the earlier layout of the conversation locks (a lock string per conversation, a pending set per
 * shard): the next commit made them owner fields of the shard's hash (src/gateway/drain/queue-layout.ts).
 */
export const EARLIER_LOCK_LAYOUT_COMMIT = 'b43799fd998866826f91d5f4d7bc36e3a0e55c74';

const git = (args: string[]): string => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' });

/**
 * Why `commit` cannot be built here, or null when it can: a shallow clone (CI checks out one commit) or a copy of the
 * sources without git history has no earlier version to build.
 */
export function earlierBuildUnavailable(commit: string): string | null {
  try {
    git(['cat-file', '-e', `${commit}^{commit}`]);
  } catch {
    return `commit ${commit.slice(0, 7)} is not in this clone (a shallow checkout, or no git history)`;
  }
  try {
    // The earlier build runs on this checkout's node_modules: right only while the dependencies are the same.
    git(['diff', '--quiet', commit, 'HEAD', '--', 'package.json', 'package-lock.json']);
  } catch {
    return `the dependencies changed since ${commit.slice(0, 7)}: its build cannot borrow this checkout's node_modules`;
  }
  return null;
}

/**
 * The path of `commit`'s bin/chatbridge.js, built if it is not yet (takes as long as `npm run build:emit`). Several
 * runs at once each build in a folder of their own and the first to finish names it: no run sees a half-built one.
 */
export function earlierBuild(commit: string): string {
  const folder = join(tmpdir(), `chatbridge-build-${commit}`);
  const cli = join(folder, 'bin', 'chatbridge.js');
  // The symlink names the node_modules of the checkout that built it, which may have gone since.
  if (existsSync(join(folder, 'dist', 'src', 'main.js')) && existsSync(join(folder, 'node_modules', 'typescript')))
    return cli;
  rmSync(folder, { recursive: true, force: true });
  const building = `${folder}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    execFileSync('sh', ['-c', `git -C "$0" archive "$1" | tar -x -C "$2"`, ROOT, commit, building]);
    symlinkSync(join(ROOT, 'node_modules'), join(building, 'node_modules'), 'dir');
    // What its `npm run build:emit` runs (the same at the commit: earlierBuildUnavailable compared package.json).
    for (const project of ['tsconfig.build.json', 'src/handoff/inbox/live/tsconfig.page.json'])
      execFileSync(process.execPath, [TSC, '-p', join(building, project), '--noCheck'], { stdio: 'pipe' });
    renameSync(building, folder);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    // Another run named its build first: that one is as good.
    if (existsSync(join(folder, 'dist', 'src', 'main.js'))) return cli;
    throw error;
  }
  return cli;
}
