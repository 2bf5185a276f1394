import type { Plugin } from 'vite';

/**
 * Which chunk the build puts a module in, by the part of the app that loads it (Vite config, build
 * time). Left to itself the bundler made a chunk of every set of screens sharing modules: the member
 * dashboard's cold load was 47 files, and each file costs a phone a request and its own compression.
 * Three groups instead, by what reaches a module through static imports:
 * - `app`: anything a public screen of the app, or its entry, loads (every screen of the app loads
 *   these anyway);
 * - `member-shell`: what the member layout and the dashboard load and no public screen does (any
 *   member screen loads the layout);
 * - `private-shared`: of those, what the admin screens load too, so an admin does not load the
 *   member layout's code.
 * Everything else (a member or admin screen's own code, what loads on demand, the landing page) is
 * left to the bundler. Nothing a public screen loads comes from a private screen's code: the public
 * delivery test checks it.
 */

export type ChunkGroup = 'app' | 'member-shell' | 'private-shared';

type Area = 'public' | 'member' | 'shell' | 'admin' | 'landing';

const SPLIT_ROUTE = /[\\/]src[\\/]client[\\/]routes[\\/](.+)\.tsx\?tsr-split=/;
const APP_ENTRY = /[\\/]src[\\/]client[\\/]app[\\/]main\.tsx$/;
const LANDING = /[\\/]src[\\/]landing[\\/]/;
const SHELL_ROUTES = new Set(['user', 'user/dashboard']);

/** The area a module starts, if it is a root: the app's entry, the landing page, a screen's code. */
function rootArea(id: string): Area[] {
  if (APP_ENTRY.test(id)) return ['public'];
  if (LANDING.test(id)) return ['landing'];
  const route = SPLIT_ROUTE.exec(id)?.[1]?.replaceAll('\\', '/');
  if (!route) return [];
  if (route === 'admin' || route.startsWith('admin/')) return ['admin'];
  if (route === 'user' || route.startsWith('user/'))
    return SHELL_ROUTES.has(route) ? ['member', 'shell'] : ['member'];
  return ['public'];
}

type Graph = { ids: Iterable<string>; imports: (id: string) => readonly string[] };

/** Every area whose roots reach each module through static imports (each area spread once per module). */
export function areasOf(graph: Graph): Map<string, Set<Area>> {
  const areas = new Map<string, Set<Area>>();
  const work: [string, Area][] = [];
  for (const id of graph.ids) for (const area of rootArea(id)) work.push([id, area]);
  for (let next = work.pop(); next; next = work.pop()) {
    const [id, area] = next;
    const known = areas.get(id) ?? new Set<Area>();
    if (known.has(area)) continue;
    known.add(area);
    areas.set(id, known);
    for (const imported of graph.imports(id)) work.push([imported, area]);
  }
  return areas;
}

export function groupOf(areas: Set<Area>): ChunkGroup | undefined {
  if (areas.has('landing')) return undefined;
  if (areas.has('public')) return 'app';
  if (areas.has('shell')) return areas.has('admin') ? 'private-shared' : 'member-shell';
  return undefined;
}

/**
 * The plugin reads the module graph once it is complete (buildEnd), before the chunks are made; the
 * groups' tests then read its answers. Use `groups` in `output.codeSplitting.groups`.
 */
export function chunkGroups(): {
  plugin: Plugin;
  groups: { name: ChunkGroup; test: (id: string) => boolean; priority: number }[];
} {
  const groupById = new Map<string, ChunkGroup>();
  const plugin: Plugin = {
    name: 'chunk-groups',
    apply: 'build',
    buildEnd() {
      groupById.clear();
      const areas = areasOf({
        ids: this.getModuleIds(),
        imports: (id) => this.getModuleInfo(id)?.importedIds ?? [],
      });
      for (const [id, reached] of areas) {
        // Entries and screens keep chunks of their own (the manifest, the precache and the tests name them).
        if (APP_ENTRY.test(id) || SPLIT_ROUTE.test(id) || this.getModuleInfo(id)?.isEntry) continue;
        const group = groupOf(reached);
        if (group) groupById.set(id, group);
      }
    },
  };
  const test = (name: ChunkGroup) => (id: string) => groupById.get(id) === name;
  return {
    plugin,
    groups: [
      { name: 'app', test: test('app'), priority: 3 },
      { name: 'private-shared', test: test('private-shared'), priority: 2 },
      { name: 'member-shell', test: test('member-shell'), priority: 1 },
    ],
  };
}
