// What a command needs from the CLI, in one place: `import { defineCommand, EXIT, … } from "../kit.js"`.
export { type BooleanOption, type OptionSpecs, type StringOption, usageError, wholeNumber } from "../args.js";
export { type CommandGroup, type CommandIO, defineCommand, EXIT } from "../command.js";
