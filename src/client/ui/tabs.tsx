import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';

export type Tab<K extends string> = { key: K; label: ReactNode };

/** Which ends of a scrolling strip hide tabs: the strip fades there (styles.css "Tabs"). */
type Hidden = 'none' | 'start' | 'end' | 'both';

function hiddenEnds(list: HTMLElement): Hidden {
  const start = list.scrollLeft > 1;
  const end = list.scrollLeft + list.clientWidth < list.scrollWidth - 1;
  return start && end ? 'both' : start ? 'start' : end ? 'end' : 'none';
}

/**
 * Scrolls the strip so the tab shows whole, clear of the faded edges (the strip's scroll-padding,
 * styles.css "Tabs"); 'nearest' leaves the page where it is when the strip is on screen.
 */
function revealTab(tab: HTMLElement): void {
  tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

/**
 * An ARIA tab list: one tab in the focus order, arrow keys move between tabs (WAI-ARIA Authoring
 * Practices "Tabs with automatic activation"). The panel is the caller's, labelled by the active tab.
 * On a narrow phone the tabs scroll sideways in their strip: the chosen tab is always shown whole, and
 * the strip fades at an end that hides more tabs (data-hidden). A tab kept in the address changes it
 * with `resetScroll: false`: the router would otherwise put the strip's scroll back where it was.
 */
export function Tabs<K extends string>({
  tabs,
  active,
  onChange,
  label,
  children,
}: {
  tabs: Tab<K>[];
  active: K;
  onChange: (key: K) => void;
  label: string;
  children: ReactNode;
}) {
  const id = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const listRef = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState<Hidden>('none');
  useEffect(() => {
    const tab = refs.current.get(active);
    if (tab) revealTab(tab);
  }, [active]);
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const update = () => setHidden(hiddenEnds(list));
    update();
    list.addEventListener('scroll', update, { passive: true });
    const resized = new ResizeObserver(update);
    resized.observe(list);
    return () => {
      list.removeEventListener('scroll', update);
      resized.disconnect();
    };
  }, []);
  const move = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const target =
      event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : step ? index + step : undefined;
    if (target === undefined) return;
    event.preventDefault();
    const next = tabs[(target + tabs.length) % tabs.length];
    if (!next) return;
    onChange(next.key);
    refs.current.get(next.key)?.focus();
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list" ref={listRef} data-hidden={hidden}>
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            ref={(node) => {
              if (node) refs.current.set(tab.key, node);
            }}
            type="button"
            role="tab"
            id={`${id}-${tab.key}`}
            aria-selected={tab.key === active}
            aria-controls={`${id}-panel`}
            tabIndex={tab.key === active ? 0 : -1}
            className="tab"
            onClick={() => onChange(tab.key)}
            onKeyDown={(event) => move(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${active}`} className="tab-panel">
        {children}
      </div>
    </div>
  );
}
