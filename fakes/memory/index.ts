/**
 * The in-memory platform: a MemoryPlatform (conversations, users, faults, call log)
 * and adapters connected to it. Not a configurable platform of the runtime: tests,
 * benchmarks and the adapter conformance suite build it in code. A test platform, so it
 * lives in fakes/, outside the build (tsconfig.build.json): dist/ ships no such platform.
 */
export { createMemoryAdapter, type MemoryAdapter, type MemoryAdapterOptions, type MemoryMethods } from './adapter.js';
export { MEMORY_CAPABILITIES } from './capabilities.js';
export { MemoryOperatorsPlatform, type MemoryThread } from './operators.js';
export {
  MemoryPlatform,
  type MemoryCall,
  type MemoryCallKind,
  type MemoryFile,
  type MemoryMessage,
  type MemoryPlatformOptions,
  type MemoryPlatformRules,
} from './platform.js';
