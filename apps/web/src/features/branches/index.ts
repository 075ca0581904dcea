// What other features may use from branches: the list (names, defaults) and the select every form and filter shares.
export { useBranches } from './api/get-branches.ts';
export { BranchSelect, type BranchSelectProps } from './components/BranchSelect.tsx';
