import { useState } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';

interface SearchInputProps extends Omit<TextInputProps, 'onChange' | 'value'> {
  value: string;
  onSearch(value: string): void;
  /** Spec section 9: 300 ms, 1000 ms on the shipments list. */
  debounceMs?: number;
  /** Text shorter than this (blank aside) is not searched; the box shows `tooShortMessage` instead. */
  minLength?: number;
  tooShortMessage?: string;
}

/** A search box that reports after the user pauses typing; Enter reports at once (barcode scanners). */
export function SearchInput({ value, onSearch, debounceMs = 300, minLength = 0, tooShortMessage, ...props }: SearchInputProps) {
  const [text, setText] = useState(value);
  const [tooShort, setTooShort] = useState(false);
  const isTooShort = (typed: string) => typed.trim() !== '' && typed.trim().length < minLength;
  const search = (typed: string) => {
    setTooShort(isTooShort(typed));
    if (!isTooShort(typed)) onSearch(typed);
  };
  // Follow the parent when it changes the search (a reset, a link), but never rewrite what is being
  // typed: parents trim, and copying 'luis' back over 'luis ' would glue the next word on.
  const [followed, setFollowed] = useState(value);
  if (value !== followed) {
    setFollowed(value);
    if (text.trim() !== value.trim()) setText(value);
  }
  // Only settled text searches, and only when it says something new.
  const report = useDebouncedCallback((typed: string) => {
    if (typed !== value) search(typed);
  }, debounceMs);
  return (
    <TextInput
      type="search"
      placeholder="Buscar…"
      aria-label="Buscar"
      autoFocus
      {...props}
      error={tooShort ? tooShortMessage : props.error}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        // The message goes as soon as the text is long enough (or blank); it comes only after a pause.
        if (!isTooShort(e.currentTarget.value)) setTooShort(false);
        report(e.currentTarget.value);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          report.cancel();
          search(text);
        }
      }}
    />
  );
}
