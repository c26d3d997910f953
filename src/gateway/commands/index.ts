/** The commands step: /start, /help, /reset, /listings and button actions. What other stages use. */
export { helpCommand, resetCommand, splitSuggestions, startCommand } from './builtin.js';
export { listingsAction, listingsCommand } from './listings.js';
export {
  CommandRegistry,
  commandStep,
  isCommandLike,
  describeCommand,
  parseCommand,
  type ButtonAction,
  type Command,
} from './registry.js';
export { STOP_COMMAND, stopCommand } from './stop.js';
