// What a command needs from the CLI, in one place: commands import these names from this module, nothing deeper.
export { type BooleanOption, type OptionSpecs, type StringOption, usageError, wholeNumber } from "../args.js";
export { type CommandGroup, type CommandIO, defineCommand, EXIT } from "../command.js";
