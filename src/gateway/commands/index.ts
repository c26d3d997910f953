/** The commands step: /start, /help, /reset, /listings and button actions. What other stages use. */
export { helpCommand, resetCommand, splitSuggestions, startCommand } from './builtin.js';
export { listingsAction, listingsCommand } from './listings.js';
export {
  CommandRegistry,
  commandStep,
  describeCommand,
  parseCommand,
  type ButtonAction,
  type Command,
} from './registry.js';
