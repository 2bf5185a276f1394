import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import { TEAM_TEXT, type TeamSearch, type TreeNode } from '../../../../shared/team.ts';
import { errorText } from '../../../lib/http.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { loadChildren, searchTeam, teamTreeQuery } from '../api.ts';
import '../team.css';

// /user/refferral-tree: the downline as an outline that fits a 360 px phone. Rows are flat (indented
// up to six steps, the level named on each), so a deep team never runs off the screen. The first
// answer holds two levels; opening a node whose children are not loaded yet asks for its next level.

/** Replaces one node (by id) anywhere in the tree. */
function replaceNode(node: TreeNode, id: string, change: (n: TreeNode) => TreeNode): TreeNode {
  if (node.id === id) return change(node);
  if (!node.children) return node;
  return { ...node, children: node.children.map((c) => replaceNode(c, id, change)) };
}

function findNode(node: TreeNode, id: string): TreeNode | undefined {
  if (node.id === id) return node;
  for (const child of node.children ?? []) {
    const found = findNode(child, id);
    if (found) return found;
  }
  return undefined;
}

type Row = { node: TreeNode; depth: number };

function visibleRows(root: TreeNode, open: Set<string>): Row[] {
  const rows: Row[] = [];
  const walk = (node: TreeNode, depth: number) => {
    rows.push({ node, depth });
    if (open.has(node.id)) for (const child of node.children ?? []) walk(child, depth + 1);
  };
  walk(root, 0);
  return rows;
}

export function TeamTree({ memberId }: { memberId: string }) {
  const query = useQuery(teamTreeQuery(memberId));
  // The loaded tree starts as the first answer and grows as nodes are opened.
  const [grown, setGrown] = useState<TreeNode | null>(null);
  const [open, setOpen] = useState<Set<string>>(() => new Set([memberId]));
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [highlight, setHighlight] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [matches, setMatches] = useState<TeamSearch['matches'] | null>(null);
  const tree = grown ?? query.data?.tree ?? null;

  if (query.isPending) return <Spinner label={TEAM_TEXT.loading} />;
  if (query.error || !tree) return <QueryError error={query.error} onRetry={() => query.refetch()} />;

  /** Loads a node's next level (or the rest of it) into the tree; returns the grown tree. */
  async function load(current: TreeNode, nodeId: string, more: boolean): Promise<TreeNode> {
    const node = findNode(current, nodeId);
    if (!node || (node.children !== null && !more)) return current;
    setBusy(nodeId);
    setFailure(null);
    try {
      const offset = more ? (node.children?.length ?? 0) : 0;
      const { tree: loaded } = await loadChildren(memberId, nodeId, offset);
      const next = replaceNode(current, nodeId, (n) => ({
        ...n,
        children: [...(more ? (n.children ?? []) : []), ...(loaded.children ?? [])],
        children_more: loaded.children_more,
      }));
      setGrown(next);
      return next;
    } catch (error) {
      setFailure(errorText(error));
      throw error;
    } finally {
      setBusy(null);
    }
  }

  async function toggle(node: TreeNode) {
    if (!tree) return;
    if (open.has(node.id)) {
      setOpen((s) => new Set([...s].filter((id) => id !== node.id)));
      return;
    }
    await load(tree, node.id, false).catch(() => undefined);
    setOpen((s) => new Set([...s, node.id]));
  }

  async function find(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    try {
      setMatches((await searchTeam(memberId, search.trim())).matches);
    } catch (error) {
      setFailure(errorText(error));
    }
  }

  /** Opens the way from the member down to a search hit, loading each level it needs. */
  async function reveal(path: string[]) {
    let current = tree;
    if (!current) return;
    const opened = new Set(open);
    try {
      for (const id of path.slice(0, -1)) {
        current = await load(current, id, false);
        let node = findNode(current, id);
        // The hit may sit beyond a node's first page of children: load more until it shows.
        const nextId = path[path.indexOf(id) + 1] ?? '';
        while (node && !node.children?.some((c) => c.id === nextId) && node.children_more > 0) {
          current = await load(current, id, true);
          node = findNode(current, id);
        }
        opened.add(id);
      }
    } catch {
      return;
    }
    setOpen(opened);
    const target = path[path.length - 1] ?? null;
    setHighlight(target);
    setMatches(null);
    requestAnimationFrame(() =>
      document.getElementById(`team-node-${target}`)?.scrollIntoView({ block: 'center' }),
    );
  }

  const rows = visibleRows(tree, open);
  return (
    <div className="stack team-tree">
      <form className="table-search" onSubmit={find}>
        <label className="field">
          <span>{TEAM_TEXT.searchTree}</span>
          <input
            type="search"
            name="search"
            autoComplete="off"
            value={search}
            minLength={2}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {failure ? (
        <p className="error" role="alert">
          {failure}
        </p>
      ) : null}
      {matches ? (
        matches.length === 0 ? (
          <p className="muted">{TEAM_TEXT.noMatch}</p>
        ) : (
          <ul className="team-matches" aria-label="Search results">
            {matches.map((m) => (
              <li key={m.id}>
                <button type="button" className="button" onClick={() => reveal(m.path)}>
                  @{m.username} <span className="muted">{TEAM_TEXT.level(m.level)}</span>
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
      <ul className="team-rows" aria-label={TEAM_TEXT.treeTitle}>
        {rows.map(({ node, depth }) => {
          const isOpen = open.has(node.id);
          return (
            <li
              key={node.id}
              id={`team-node-${node.id}`}
              className={`team-row${highlight === node.id ? ' highlight' : ''}`}
              style={{ paddingLeft: `${Math.min(depth, 6) * 0.75}rem` }}
              data-testid="team-node"
              data-username={node.username}
            >
              <div className="team-row-head">
                {node.children_count > 0 ? (
                  <button
                    type="button"
                    className="team-toggle"
                    aria-expanded={isOpen}
                    aria-label={isOpen ? TEAM_TEXT.collapse(node.username) : TEAM_TEXT.expand(node.username)}
                    disabled={busy === node.id}
                    onClick={() => toggle(node)}
                  >
                    {busy === node.id ? '…' : isOpen ? '−' : '+'}
                  </button>
                ) : (
                  <span className="team-toggle" aria-hidden="true" />
                )}
                <span className="team-name">
                  <strong>@{node.username}</strong> <span className="muted">{node.fullname}</span>
                </span>
                <span className={`badge ${node.is_active === 'active' ? 'green' : ''}`}>
                  {node.is_active === 'active' ? TEAM_TEXT.active : TEAM_TEXT.inactive}
                </span>
              </div>
              <div className="team-row-figures muted">
                {node.level > 0 ? `${TEAM_TEXT.level(node.level)} · ` : ''}
                {TEAM_TEXT.teamBusiness} {formatUsd(node.team_business)} · {TEAM_TEXT.teamSize}{' '}
                {node.team_size}
              </div>
              {isOpen && node.children_more > 0 ? (
                <button
                  type="button"
                  className="button"
                  disabled={busy === node.id}
                  onClick={() => load(tree, node.id, true).catch(() => undefined)}
                >
                  {TEAM_TEXT.showMore(node.children_more)}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
