import { useEffect, useState } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';

interface SearchInputProps extends Omit<TextInputProps, 'onChange' | 'value'> {
  value: string;
  onSearch(value: string): void;
  /** Spec section 9: 300 ms, 1000 ms on the shipments list. */
  debounceMs?: number;
}

/** A search box that reports after the user pauses typing; Enter reports at once (barcode scanners). */
export function SearchInput({ value, onSearch, debounceMs = 300, ...props }: SearchInputProps) {
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text, debounceMs);
  // Follow the parent when it changes the search (a reset, a link), but never rewrite what is being
  // typed: parents trim, and copying 'luis' back over 'luis ' would glue the next word on.
  useEffect(() => setText((current) => (current.trim() === value.trim() ? current : value)), [value]);
  useEffect(() => {
    if (debounced !== value) onSearch(debounced);
    // Only the settled text triggers a search.
  }, [debounced]);
  return (
    <TextInput
      type="search"
      placeholder="Buscar…"
      aria-label="Buscar"
      autoFocus
      {...props}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          onSearch(text);
        }
      }}
    />
  );
}
