// The member bottom bar's icons: 24 px outlines in the text's colour, beside a visible label (so they
// are hidden from screen readers). Inline SVG: no icon font or image to download.

type IconProps = { path: string };

function Icon({ path }: IconProps) {
  return (
    <svg
      className="nav-icon"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={path} />
    </svg>
  );
}

export const HomeIcon = () => <Icon path="M3 11 12 4l9 7M5 10v10h5v-6h4v6h5V10" />;
export const TransferIcon = () => <Icon path="M4 8h14m-4-4 4 4-4 4M20 16H6m4-4-4 4 4 4" />;
export const AddMoneyIcon = () => <Icon path="M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm0 5v8m-4-4h8" />;
export const SupportIcon = () => (
  <Icon path="M4 5h16v11H9l-5 4V5Zm5.5 4a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .8-1 1.4M12 14.5v.01" />
);
export const MoreIcon = () => <Icon path="M4 6h16M4 12h16M4 18h16" />;
