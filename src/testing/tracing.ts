/**
 * An in-memory tracer: every span the program opens, kept in an array, so a
 * test can see which service methods a request called (each service method
 * is one span named `Service.method`, src/kernel/Tracing.ts). It delegates
 * to Effect's own tracer, so spans behave as they do without it.
 *
 * @since 0.1.0
 */
import { Effect, Layer, Tracer } from "effect"

/**
 * The spans recorded so far, and the layer that installs the tracer.
 *
 * @category tracing
 * @since 0.1.0
 */
export interface MemoryTracer {
  /** Every span opened since the tracer was made (or last cleared), in opening order. */
  readonly spans: ReadonlyArray<Tracer.Span>
  /** Forgets the spans recorded so far. */
  readonly clear: () => void
  /** The tracer itself (`Effect.withTracer`). */
  readonly tracer: Tracer.Tracer
  /** Installs the tracer for everything built with it (`Layer.setTracer`). */
  readonly layer: Layer.Layer<never>
}

/**
 * A fresh in-memory tracer.
 *
 * @category tracing
 * @since 0.1.0
 */
export const memoryTracer = (): MemoryTracer => {
  const spans: Array<Tracer.Span> = []
  const base = Effect.runSync(Effect.tracer)
  const tracer = Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) => {
      const span = base.span(name, parent, context, links, startTime, kind, options)
      spans.push(span)
      return span
    },
    context: (f, fiber) => base.context(f, fiber)
  })
  return {
    spans,
    clear: () => {
      spans.length = 0
    },
    tracer,
    layer: Layer.setTracer(tracer)
  }
}
