// Public API of the Go text/template subset used by ToolHive workflows.

export type {
  ActionNode,
  BadNode,
  BoolNode,
  BranchNode,
  ChainNode,
  Command,
  CommentNode,
  DefineNode,
  DotNode,
  ExprNode,
  FieldNode,
  ForeignOperator,
  IdentifierNode,
  LoopControlNode,
  NilNode,
  NumberNode,
  ParenNode,
  ParsedTemplate,
  Pipeline,
  Segment,
  Span,
  StringNode,
  TemplateCallNode,
  TemplateError,
  TemplateProblem,
  TemplateProblemCode,
  TemplateNode,
  TextNode,
  VariableDecl,
  VariableNode,
} from './ast.js';
export { parseTemplate, isTemplate, MAX_PAREN_DEPTH } from './parser.js';
export { extractReferences, type FieldReference } from './references.js';
export {
  checkConditionRendersBoolean,
  type ConditionReason,
  type ConditionVerdict,
  type NeverBooleanFunction,
} from './condition.js';
export { knownFunctions, toolhiveFunctions, goBuiltinFunctions, isKnownFunction } from './functions.js';
export { TEMPLATE_ROOTS, WORKFLOW_FIELDS, isTemplateRoot, type TemplateRoot } from './context.js';
