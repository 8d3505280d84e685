// What ToolHive's templates can read: the data its expander renders every template with
// (expandStringInternal and buildWorkflowContext in pkg/vmcp/composer/template_expander.go).
// A name outside these is a missing map key, which Go's text/template renders as `<no value>`.

/** The top-level keys of the template data. `forEach` is only there in a forEach's inner step. */
export const TEMPLATE_ROOTS = ['params', 'steps', 'vars', 'workflow', 'forEach'] as const;

export type TemplateRoot = (typeof TEMPLATE_ROOTS)[number];

/** The keys under `.workflow`. */
export const WORKFLOW_FIELDS = ['id', 'duration_ms', 'step_count', 'status', 'start_time'] as const;

export function isTemplateRoot(name: string): name is TemplateRoot {
  return (TEMPLATE_ROOTS as readonly string[]).includes(name);
}
