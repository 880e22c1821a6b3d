/**
 * The fuzz properties behind `cardfx fuzz` (`runFuzz`, `runFuzzRange`,
 * `mergeFuzzPartials`, ...), part of the kit; they live in the services
 * (`src/services/Fuzz.ts`), where the worker threads reach them.
 *
 * @since 0.1.0
 */
export * from "../services/Fuzz.js"
