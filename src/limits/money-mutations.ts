// At most one money-moving mutation field per operation: a document that
// would create two payouts (aliases, fragments, inline fragments) is refused
// by validation, so nothing of it runs. One field per operation also keeps
// each payment's idempotency key, audit line and rate-limit point its own.
import {
  Kind,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { topLevelError } from '../errors/top-level.js';

/**
 * A validation rule that refuses an operation with more than one money-moving mutation (fragments included): each must run, and be
 * retried, on its own.
 */
export function oneMoneyMutationRule(moneyMoving: ReadonlySet<string>): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      if (operation.operation !== 'mutation') return;
      const found = new Map<string, string>();
      collectMoneyFields(operation.selectionSet, (name) => context.getFragment(name), moneyMoving, new Set(), found);
      if (found.size > 1) {
        context.reportError(topLevelError('TOO_MANY_MONEY_MUTATIONS', { fields: [...found.values()] }, { nodes: operation }));
      }
    },
  });
}

/** Whether a (validated) operation selects a money-moving field: the rate-limit plugin spends its money point up front. */
export function selectsMoneyField(document: DocumentNode, operation: OperationDefinitionNode, moneyMoving: ReadonlySet<string>): boolean {
  if (operation.operation !== 'mutation') return false;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const found = new Map<string, string>();
  collectMoneyFields(operation.selectionSet, (name) => fragments.get(name), moneyMoving, new Set(), found);
  return found.size > 0;
}

/**
 * The money-moving root fields, by response key: graphql runs fields that share a response key (the same
 * field reached through two fragments) once, so each distinct key is one run.
 */
function collectMoneyFields(
  selectionSet: SelectionSetNode,
  getFragment: (name: string) => FragmentDefinitionNode | null | undefined,
  moneyMoving: ReadonlySet<string>,
  fragmentsOnPath: ReadonlySet<string>,
  found: Map<string, string>,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (moneyMoving.has(selection.name.value)) found.set(selection.alias?.value ?? selection.name.value, selection.name.value);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collectMoneyFields(selection.selectionSet, getFragment, moneyMoving, fragmentsOnPath, found);
    } else {
      const fragment = getFragment(selection.name.value);
      // Unknown or cyclic fragments: graphql's own rules report them.
      if (!fragment || fragmentsOnPath.has(fragment.name.value)) continue;
      collectMoneyFields(fragment.selectionSet, getFragment, moneyMoving, new Set([...fragmentsOnPath, fragment.name.value]), found);
    }
  }
}
