/**
 * The pane's tab list, following the WAI-ARIA tabs pattern
 * (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/): one tab in the Tab order
 * (the selected one), the arrow keys, Home and End move between tabs and
 * select them. Written here rather than Fluent's TabList: that one's arrow-key
 * handling (tabster's mover) adds two focusable, aria-hidden elements around
 * the tabs, which axe-core reports as `aria-hidden-focus` (serious).
 */
import { makeStyles, mergeClasses, tokens } from "@fluentui/react-components";
import { useRef, type KeyboardEvent } from "react";

const useStyles = makeStyles({
  // Five labels do not fit the narrowest pane (320 px) on one line: the list wraps rather than hiding a tab.
  list: { display: "flex", flexWrap: "wrap", gap: tokens.spacingHorizontalXS },
  tab: {
    position: "relative",
    border: "none",
    background: "none",
    cursor: "pointer",
    padding: `${tokens.spacingVerticalMNudge} ${tokens.spacingHorizontalMNudge}`,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    color: tokens.colorNeutralForeground2,
    borderRadius: tokens.borderRadiusMedium,
    ":hover": { color: tokens.colorNeutralForeground1, backgroundColor: tokens.colorSubtleBackgroundHover },
    ":focus-visible": { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}` },
    "::after": {
      content: '""',
      position: "absolute",
      left: tokens.spacingHorizontalMNudge,
      right: tokens.spacingHorizontalMNudge,
      bottom: 0,
      height: tokens.strokeWidthThicker,
      borderRadius: tokens.borderRadiusCircular,
      backgroundColor: "transparent",
    },
  },
  selected: {
    color: tokens.colorNeutralForeground1,
    fontWeight: tokens.fontWeightSemibold,
    "::after": { backgroundColor: tokens.colorCompoundBrandStroke },
  },
});

export interface ViewTab<T extends string> {
  id: T;
  label: string;
}

/** Tab `id`s are `tab-<id>`, each controlling the panel `panel-<id>`. */
export function ViewTabs<T extends string>({
  views,
  selected,
  onSelect,
  label,
}: {
  views: readonly ViewTab<T>[];
  selected: T;
  onSelect(id: T): void;
  label: string;
}) {
  const styles = useStyles();
  const refs = useRef(new Map<T, HTMLButtonElement>());

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const at = views.findIndex((v) => v.id === selected);
    const target =
      event.key === "ArrowRight"
        ? (at + 1) % views.length
        : event.key === "ArrowLeft"
          ? (at - 1 + views.length) % views.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? views.length - 1
              : -1;
    if (target < 0) return;
    event.preventDefault();
    const id = views[target].id;
    onSelect(id);
    refs.current.get(id)?.focus();
  }

  return (
    <div role="tablist" aria-label={label} aria-orientation="horizontal" className={styles.list} onKeyDown={onKeyDown}>
      {views.map((v) => (
        <button
          key={v.id}
          ref={(element) => {
            if (element) refs.current.set(v.id, element);
            else refs.current.delete(v.id);
          }}
          type="button"
          role="tab"
          id={`tab-${v.id}`}
          aria-controls={`panel-${v.id}`}
          aria-selected={v.id === selected}
          tabIndex={v.id === selected ? 0 : -1}
          className={mergeClasses(styles.tab, v.id === selected && styles.selected)}
          onClick={() => onSelect(v.id)}
        >
          {v.label}
        </button>
      ))}
    </div>
  );
}
