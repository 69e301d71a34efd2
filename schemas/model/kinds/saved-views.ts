/**
 * The saved views kind in dqform's model: what code declares (the desired shape), the `dqform.yaml`
 * entry and the kind's record (../kind.ts); the wire shapes they build on are in
 * schemas/platform/saved-views.ts.
 */
import { z } from 'zod';
import { SavedViewConfig, SavedViewGrant, SavedViewSelection, Visibility } from '../../platform/saved-views';
import { defineKind, pinnedId, ql, yamlMeta } from '../kind';

// ---- the kind (schemas/model/kind.ts) ----

export const DesiredSavedView = z.object({
  id: pinnedId,
  title: z.string().min(1).max(200).describe('the view\'s title'),
  description: z.string().max(2000).optional().describe('what the view is for'),
  context: z.string().max(200).optional().describe('the screen the view belongs to, e.g. issues'),
  selection: SavedViewSelection.optional().describe('what the view shows: { resolverQl }'),
  config: SavedViewConfig.optional().describe('how the view shows it: columns, sorting, grouping'),
  visibility: Visibility.optional().describe('VISIBILITY_PRIVATE (owner and grantees; the default) or VISIBILITY_WORKSPACE'),
  grants: z.array(SavedViewGrant).max(200).optional().describe('who the view is shared with: userEmail or groupId, and a permission'),
});
export type DesiredSavedView = z.infer<typeof DesiredSavedView>;

export const YamlSavedView = DesiredSavedView.extend({
  selection: z.union([ql, SavedViewSelection]).optional().describe('what the view shows: ResolverQL text, or { resolverQl }'),
  ...yamlMeta,
});

export const savedViewKindRecord = defineKind({
  type: 'dq_saved_view',
  order: 95,
  desired: DesiredSavedView,
  yaml: { section: 'savedViews', entry: YamlSavedView, what: 'saved views (per-user pins are not managed)' },
});
