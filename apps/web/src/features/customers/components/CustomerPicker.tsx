import { useState } from 'react';
import { Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { customerDocument, customerName, type Customer } from '@tramo/domain';
import { useCustomers } from '../api/get-customers.ts';

/** Spec section 9: the pick list shows at most 8 customers and searches after a 300 ms pause. */
const PICK_LIMIT = 8;
const SEARCH_DEBOUNCE_MS = 300;

export interface CustomerPickerProps {
  label?: string;
  placeholder?: string;
  value?: Customer | null;
  onChange(customer: Customer | null): void;
  error?: string;
  disabled?: boolean;
  required?: boolean;
}

/**
 * Searches the directory by name, document, phone or email and returns the chosen customer.
 * Arrow keys move through the results, Enter picks, Escape closes. Used by the shipment and
 * payment forms.
 */
export function CustomerPicker({
  label = 'Cliente',
  placeholder = 'Buscar por nombre o documento',
  value,
  onChange,
  error,
  disabled,
  required,
}: CustomerPickerProps) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState(value ? customerName(value) : '');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const typing = value ? search !== customerName(value) : true;
  const results = useCustomers(debounced, PICK_LIMIT, debounced.length > 0 && typing);
  const items = debounced.length > 0 ? (results.data?.items ?? []) : [];

  const pick = (customer: Customer) => {
    setSearch(customerName(customer));
    onChange(customer);
    combobox.closeDropdown();
  };

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(id) => {
        const chosen = items.find((c) => String(c.id) === id);
        if (chosen) pick(chosen);
      }}
    >
      <Combobox.Target>
        <TextInput
          label={label}
          placeholder={placeholder}
          withAsterisk={required}
          disabled={disabled}
          error={error}
          autoComplete="off"
          value={search}
          description={value ? customerDocument(value) : undefined}
          rightSection={results.isFetching ? <Loader size={16} /> : null}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            if (value) onChange(null);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={debounced.length === 0 || !typing}>
        <Combobox.Options aria-label="Clientes encontrados">
          {items.map((c) => (
            <Combobox.Option value={String(c.id)} key={c.id}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Text size="sm" truncate>
                  {customerName(c)}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {customerDocument(c)}
                </Text>
              </Group>
            </Combobox.Option>
          ))}
          {!results.isFetching && results.isSuccess && items.length === 0 && <Combobox.Empty>Sin resultados.</Combobox.Empty>}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
