import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMenuButton } from './useMenuButton';

/** A menu of two buttons and a link, with a focusable element after it. */
function Fruit({ onPick }: { onPick: (name: string) => void }) {
  const { open, close, buttonProps, menuProps } = useMenuButton();
  const pick = (name: string) => {
    onPick(name);
    close(true);
  };
  return (
    <div>
      <button {...buttonProps}>Fruit</button>
      {open && (
        <ul {...menuProps}>
          {['Apple', 'Banana'].map((name) => (
            <li key={name} role="none">
              <button type="button" role="menuitem" tabIndex={-1} onClick={() => pick(name)}>
                {name}
              </button>
            </li>
          ))}
          <li role="none">
            <a
              role="menuitem"
              tabIndex={-1}
              href="#cherry"
              onClick={(e) => {
                e.preventDefault();
                pick('Cherry');
              }}
            >
              Cherry
            </a>
          </li>
        </ul>
      )}
      <button type="button">After</button>
    </div>
  );
}

function setup() {
  const onPick = vi.fn();
  render(<Fruit onPick={onPick} />);
  const button = screen.getByRole('button', { name: 'Fruit' });
  button.focus();
  return { user: userEvent.setup(), button, onPick, items: () => screen.getAllByRole('menuitem') };
}

describe('useMenuButton', () => {
  it('opens with ArrowDown on the first item; arrows wrap, Home and End jump', async () => {
    const { user, button, items } = setup();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).not.toHaveAttribute('aria-controls');
    await user.keyboard('{ArrowDown}');
    const menu = screen.getByRole('menu', { name: 'Fruit' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', menu.id);
    expect(items()[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(items()[1]).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(items()[0]).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(items()[2]).toHaveFocus();
    await user.keyboard('{Home}');
    expect(items()[0]).toHaveFocus();
    await user.keyboard('{End}');
    expect(items()[2]).toHaveFocus();
  });

  it('opens with ArrowUp on the last item', async () => {
    const { user, items } = setup();
    await user.keyboard('{ArrowUp}');
    expect(items()[2]).toHaveFocus();
  });

  it('closes with Escape, focus back on the button, and with Tab', async () => {
    const { user, button } = setup();
    await user.keyboard('{ArrowDown}{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    await user.tab();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('activates items with Enter, and a link item with Space too, focus back on the button', async () => {
    const { user, button, onPick } = setup();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onPick).toHaveBeenLastCalledWith('Apple');
    expect(button).toHaveFocus();
    await user.keyboard('{ArrowUp}[Space]');
    expect(onPick).toHaveBeenLastCalledWith('Cherry');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('toggles on click, and closes on a press or focus outside', async () => {
    const { user, button } = setup();
    await user.click(button);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.click(button);
    expect(screen.queryByRole('menu')).toBeNull();
    await user.click(button);
    await user.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
    await user.click(button);
    act(() => screen.getByRole('button', { name: 'After' }).focus());
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('stays open while a press inside blurs the menu to nowhere (Safari does not focus a pressed button)', () => {
    const { button, onPick, items } = setup();
    fireEvent.click(button);
    const banana = items()[1];
    fireEvent.mouseDown(banana);
    fireEvent.focusOut(items()[0], { relatedTarget: null });
    fireEvent.mouseUp(banana);
    fireEvent.click(banana);
    expect(onPick).toHaveBeenCalledWith('Banana');
  });
});
