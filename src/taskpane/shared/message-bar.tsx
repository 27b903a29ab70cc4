/**
 * Fluent's MessageBar, named for what it is. Fluent labels the bar (a
 * `group`) by the id of its MessageBarTitle; the pane's bars have no title,
 * so that id named nothing and the group had no name. Here the group is named
 * by its intent ("Error", "Warning", …) unless the caller names it.
 */
import { MessageBar as FluentMessageBar, type MessageBarProps } from "@fluentui/react-components";
import { forwardRef } from "react";

const INTENT_NAMES: Record<NonNullable<MessageBarProps["intent"]>, string> = {
  info: "Information",
  success: "Success",
  warning: "Warning",
  error: "Error",
};

export const MessageBar = forwardRef<HTMLDivElement, MessageBarProps>(function MessageBar(props, ref) {
  const name = props["aria-label"] ?? INTENT_NAMES[props.intent ?? "info"];
  return <FluentMessageBar ref={ref} {...props} aria-labelledby={props["aria-labelledby"]} aria-label={name} />;
});
