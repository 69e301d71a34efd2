/**
 * resolveManifest (resolve.ts) on small synth documents: dependency and domain cycles name just
 * the loop, a resource never depends on itself, and the checks across the stacks of an app
 * (issue 23: these were reached mostly through the spawned CLI, which the mutation run does not
 * count).
 */
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { resolveManifest, type SiblingStack } from '../../src/engine/resolve';
import { deriveId } from '../../src/engine/identity';

const tf = (resource: Record<string, unknown>, namespace = 'shop') => ({ provider: { dq: [{ namespace }] }, resource });
const load = (resource: Record<string, unknown>, stack = 'prod', namespace = 'shop') => manifestFromTerraformJson(tf(resource, namespace), { stack });
const errors = (r: ReturnType<typeof resolveManifest>) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.summary);

describe('dependency cycles', () => {
  test('the cycle is named from where it closes, without the resources that merely lead into it', () => {
    const m = load({
      dq_owner: {
        a: { title: 'A', depends_on: ['dq_owner.b'] },
        b: { title: 'B', depends_on: ['dq_owner.c'] },
        c: { title: 'C', depends_on: ['dq_owner.b'] },
      },
    });
    expect(errors(resolveManifest(m, 'w'))).toEqual(['dependency cycle: dq_owner.b -> dq_owner.c -> dq_owner.b']);
  });

  test('resources that depend on nothing are walked past: two loops through shared leaves, by reference and depends_on, each named once', () => {
    const m = load({
      dq_owner: {
        leaf: { title: 'L' },
        other: { title: 'O' },
        x: { title: 'X', depends_on: ['dq_owner.leaf', 'dq_owner.y'] },
        y: { title: 'Y', depends_on: ['dq_owner.other', 'dq_owner.x'] },
      },
      dq_ownership: {
        p: { owner_id: '${dq_owner.leaf.id}', depends_on: ['dq_ownership.q'], selection: { query: { resolver_ql: 'with_tag("a")' } } },
        q: { owner_id: '${dq_owner.other.id}', depends_on: ['dq_ownership.p'], selection: { query: { resolver_ql: 'with_tag("b")' } } },
      },
    });
    expect(errors(resolveManifest(m, 'w'))).toEqual(['dependency cycle: dq_owner.x -> dq_owner.y -> dq_owner.x', 'dependency cycle: dq_ownership.p -> dq_ownership.q -> dq_ownership.p']);
  });

  test('a self-reference (depends_on or ${...id}) is no cycle and no dependency; a loop through a dependency-free resource cannot exist, a dependency on an absent (removed) address is walked past (review of issue 27)', () => {
    const m = load({
      dq_owner: {
        a: { title: 'A', depends_on: ['dq_owner.a'] },
        b: { title: '${dq_owner.b.id}' },
        c: { title: 'C', depends_on: ['dq_owner.gone', 'dq_owner.d'] },
        d: { title: 'D' },
        e: { title: 'E', depends_on: ['dq_owner.e', 'dq_owner.f'] },
        f: { title: 'F', depends_on: ['dq_owner.e'] },
      },
    });
    const r = resolveManifest(m, 'w');
    expect(errors(r)).toEqual(['dependency cycle: dq_owner.e -> dq_owner.f -> dq_owner.e']);
    expect(r.resources.filter((x) => 'ab'.includes(x.name)).map((x) => x.dependsOn)).toEqual([[], []]);
  });

  test('no cycle, no error; dependencies are sorted and a resource does not depend on itself', () => {
    const m = load({ dq_owner: { a: { title: 'A', depends_on: ['dq_owner.c', 'dq_owner.b'] }, b: { title: 'B' }, c: { title: 'C', depends_on: ['dq_owner.b'] } } });
    const r = resolveManifest(m, 'w');
    expect(errors(r)).toEqual([]);
    expect(r.resources.map((x) => [x.address, x.dependsOn])).toEqual([
      ['dq_owner.a', ['dq_owner.b', 'dq_owner.c']],
      ['dq_owner.b', []],
      ['dq_owner.c', ['dq_owner.b']],
    ]);
  });

  test('a domain that refers to itself as parent is a domain cycle, not a dependency cycle', () => {
    const m = load({ dq_domain: { d: { name: 'D', parent_id: '${dq_domain.d.id}' } } });
    const r = resolveManifest(m, 'w');
    expect(r.resources[0].dependsOn).toEqual([]);
    expect(errors(r)).toEqual(['domain cycle: dq_domain.d -> dq_domain.d']);
  });
});

describe('the stacks of an app', () => {
  const sibling = (stack: string, namespace: string, resource: Record<string, unknown>): SiblingStack => ({ stack, namespace, manifest: load(resource, stack, namespace) });

  test('the stack itself among the siblings is not a second stack sharing its namespace', () => {
    const m = load({ dq_owner: { a: { title: 'A' } } });
    expect(errors(resolveManifest(m, 'w', { siblings: [sibling('prod', 'shop', { dq_owner: { a: { title: 'A' } } })] }))).toEqual([]);
  });

  test('another stack with the same namespace is refused, naming both stacks and what to do', () => {
    const m = load({ dq_owner: { a: { title: 'A' } } });
    const r = resolveManifest(m, 'w', { siblings: [sibling('dev', 'shop', { dq_owner: { z: { title: 'Z' } } })] });
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      { severity: 'error', summary: 'stacks "prod" and "dev" both use namespace "shop": each would delete what only the other declares', hint: 'Give every stack its own namespace.' },
    ]);
  });

  test('two stacks pinning one owner id are refused, naming both addresses, stacks and namespaces; a tag of another namespace names it', () => {
    // the id carries the tag of namespace "dev", which stack "dev" of this app uses
    const id = deriveId('w', 'dev', 'dq_owner', 'x');
    const m = load({ dq_owner: { mine: { title: 'A', id } } });
    const r = resolveManifest(m, 'w', { siblings: [sibling('dev', 'dev', { dq_owner: { theirs: { title: 'B', id: id.toUpperCase() } } })] });
    expect(errors(r)).toEqual([
      `pinned id "${id}" carries the tag of namespace "dev" (stack "dev" of this app), not of namespace "shop" (this stack): two stacks would manage one object`,
      `dq_owner.mine (stack "prod", namespace "shop") and dq_owner.theirs (stack "dev", namespace "dev") declare the same owner "${id}": two stacks would fight over it`,
    ]);
    expect(r.diagnostics.find((d) => d.summary.startsWith('pinned id'))).toMatchObject({ address: 'dq_owner.mine', field: 'id', hint: expect.stringContaining('Manage it in stack "dev", or drop the pinned id') });
  });

  test('an id tagged by a namespace no stack of the app uses is "another namespace"', () => {
    const id = deriveId('w', 'elsewhere', 'dq_owner', 'x');
    const r = resolveManifest(load({ dq_owner: { mine: { title: 'A', id } } }), 'w');
    expect(errors(r)).toEqual([`pinned id "${id}" carries the tag of another namespace, not of namespace "shop" (this stack): two stacks would manage one object`]);
    expect(r.diagnostics[0].hint).toContain('Manage it in the stack of that namespace, or drop the pinned id');
  });
});
