// The landing page's icons, drawn for it: one inline sprite (no request, no icon font), each icon a
// <use> of it. Decorative everywhere: the text beside an icon, or a visually hidden label, names it.

const STROKE = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

const PATHS: Record<string, string> = {
  shield: 'M12 3 4.5 6v5.5c0 4.6 3.1 8.3 7.5 9.5 4.4-1.2 7.5-4.9 7.5-9.5V6L12 3Zm-3.2 9 2.3 2.3 4.4-4.6',
  book: 'M4 5.5C4 4.7 4.7 4 5.5 4H11v16H5.5A1.5 1.5 0 0 1 4 18.5v-13ZM20 5.5c0-.8-.7-1.5-1.5-1.5H13v16h5.5c.8 0 1.5-.7 1.5-1.5v-13ZM7 8h1.5M7 11h1.5M15.5 8H17M15.5 11H17',
  ledger: 'M6 3h12v18H6zM9 7h6M9 11h6M9 15h3',
  chat: 'M4 5h16v11H9l-5 4V5Zm4 4.5h8M8 12.5h5',
  wallet:
    'M4 7h14.5c.8 0 1.5.7 1.5 1.5v9c0 .8-.7 1.5-1.5 1.5h-13A1.5 1.5 0 0 1 4 17.5V7Zm0 0V6c0-.8.7-1.5 1.5-1.5H16V7m0 6.5h1.5',
  coin: 'M12 3.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17ZM8.5 8.5h7M12 8.5V16',
  transfer: 'M4 8h14l-3.5-3.5M20 16H6l3.5 3.5',
  people:
    'M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-5.5 8c.5-3 2.7-5 5.5-5s5 2 5.5 5M16 5.5a3 3 0 0 1 0 5.5m1.5 3c1.6.6 2.7 2.3 3 5',
  plus: 'M12 5v14M5 12h14',
  prev: 'M15 5l-7 7 7 7',
  next: 'M9 5l7 7-7 7',
  pause: 'M8.5 5v14M15.5 5v14',
  play: 'M7 4.5v15L19.5 12 7 4.5Z',
  mail: 'M3.5 6h17v12h-17zM4 6.5l8 6 8-6',
  facebook:
    'M14.5 8H16V4.8c-.7-.1-1.6-.2-2.4-.2-2.4 0-4 1.5-4 4.2V11H7v3.5h2.6V21h3.2v-6.5h2.7l.4-3.5h-3.1V9.1c0-.7.4-1.1 1.7-1.1Z',
  instagram:
    'M7.5 3.5h9a4 4 0 0 1 4 4v9a4 4 0 0 1-4 4h-9a4 4 0 0 1-4-4v-9a4 4 0 0 1 4-4ZM12 8.2a3.8 3.8 0 1 0 0 7.6 3.8 3.8 0 0 0 0-7.6Zm5.2-2h.01',
  twitter:
    'M21 6.3c-.7.3-1.4.5-2.1.6.8-.5 1.3-1.2 1.6-2-.7.4-1.5.7-2.3.9a3.7 3.7 0 0 0-6.3 3.4A10.5 10.5 0 0 1 4.3 5.3a3.7 3.7 0 0 0 1.1 4.9c-.6 0-1.2-.2-1.7-.5 0 1.8 1.3 3.3 3 3.6-.6.2-1.1.2-1.7.1.5 1.5 1.9 2.6 3.5 2.6A7.4 7.4 0 0 1 3 17.5 10.5 10.5 0 0 0 8.7 19c6.8 0 10.5-5.6 10.5-10.5v-.5c.7-.5 1.3-1.1 1.8-1.7Z',
  youtube:
    'M20.6 8.2c-.2-.9-.9-1.6-1.8-1.8C17.2 6 12 6 12 6s-5.2 0-6.8.4c-.9.2-1.6.9-1.8 1.8C3 9.8 3 12 3 12s0 2.2.4 3.8c.2.9.9 1.6 1.8 1.8 1.6.4 6.8.4 6.8.4s5.2 0 6.8-.4c.9-.2 1.6-.9 1.8-1.8.4-1.6.4-3.8.4-3.8s0-2.2-.4-3.8ZM10.2 14.6V9.4l4.4 2.6-4.4 2.6Z',
};

export type IconName = keyof typeof PATHS;

/** Defined once, at the top of <body>; every Icon below points into it. */
export function IconSprite() {
  return (
    <svg className="sprite" aria-hidden="true" focusable="false" width="0" height="0">
      {Object.entries(PATHS).map(([name, d]) => (
        <symbol key={name} id={`i-${name}`} viewBox="0 0 24 24">
          <path d={d} {...STROKE} />
        </symbol>
      ))}
    </svg>
  );
}

export function Icon({ name, size = 24, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      aria-hidden="true"
      focusable="false"
      width={size}
      height={size}
    >
      <use href={`#i-${name}`} />
    </svg>
  );
}

/** The brand mark, the same drawing as /favicon.svg. */
export function Logo() {
  return (
    <svg className="logo" aria-hidden="true" focusable="false" width="32" height="32" viewBox="0 0 64 64">
      <rect width="64" height="64" rx="14" fill="#0b1f3a" />
      <path
        d="M14 44 L26 30 L34 37 L50 20"
        stroke="#f5b700"
        strokeWidth="6"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
