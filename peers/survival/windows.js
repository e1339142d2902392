'use strict'
// The survival test server's windows: the player's own 2x2 crafting grid (window 0, always
// open), the 3x3 crafting table and the furnace, with vanilla's (1.17+) click semantics.
//
// How it works. Besides window 0 a player has at most one open window, opened by using a
// crafting table or furnace block within reach and closed by the client, by walking off, or
// by the block going. A click is applied to the window's slots as vanilla's
// AbstractContainerMenu.clicked does: pick-up, number-key and swap clicks on ordinary slots by
// prismarine-windows (mineflayer's own model of vanilla's clicks); the result slots, the
// furnace's fuel and output slots, shift-clicks (vanilla's quickMoveStack per menu), drops
// and double-clicks here, because prismarine-windows does not craft and its shift-click is
// not the menus'. Like vanilla, the server keeps "remote" slots: what it believes the client
// shows. A click's claims (changed slots, carried item) become the remote state; after the
// click every slot whose content differs from its remote state is sent (set_slot, each with
// a new state id), so a click the client predicted right costs nothing and a crafting result
// that changed is sent. A click whose state id is not the window's current one is still
// applied, then the whole window is sent (window_items): vanilla's resync.
//
// Events: window_opened, window_closed, crafted, smelted, dropped, and
//   {"event":"click_resync","player":P,"window":W,"reason":"state_id"|"slots","slots":[..]}
// for a stale click that changed something or a claim the server's outcome contradicts, and
//   {"event":"window_sync","player":P,"window":W}
// for a stale click that changed nothing: a client asking for the window's contents (mcagent
// sends one on purpose), which is not a disagreement.

const { requirePeer } = require('../common')
const { Furnace, burnTime, smeltsTo } = require('./furnace')

const REACH = 8 // vanilla's stillValid: the block's centre within 8 blocks
const OUTSIDE = -999 // the slot number of a click outside the window
const INVENTORY_SLOTS = 36 // main 27 + hotbar 9, at the end of every window

// The menus. `container` is how many slots come before the player's 36; `grid` the crafting
// grid's slots (first, width), `result` its result slot.
const MENUS = {
  inventory: { type: 'minecraft:inventory', container: 9, grid: [1, 2], result: 0, size: 46 },
  crafting: { type: 'minecraft:crafting', container: 10, grid: [1, 3], result: 0, size: 46, legacyType: 'minecraft:crafting_table', legacySlots: 0 },
  furnace: { type: 'minecraft:furnace', container: 3, grid: null, result: -1, size: 39, legacySlots: 3 }
}
const FURNACE = { input: 0, fuel: 1, output: 2 }

module.exports = function createWindows ({ registry, Item, stacks, crafting, packets, emit, blockAt, drop }) {
  const pwindows = requirePeer('prismarine-windows')(registry)
  const hasCursorPacket = Boolean(registry.version['>='] && registry.version['>=']('1.21.2'))
  // Until 1.16 a click carries an action number, not a state id, and is answered (transaction).
  const confirmsClicks = packets.serverFieldType('window_click', 'action') !== undefined
  const furnaces = new Map() // "x,y,z" -> Furnace
  let nextWindowId = 1

  const posKey = (pos) => `${pos.x},${pos.y},${pos.z}`

  // -- slots of a window ----------------------------------------------------------------
  // Every window's last 36 slots are the player's main inventory and hotbar: window-0
  // slots 9..44. The inventory window is window 0 itself.
  function get (player, win, i) {
    if (win.kind === 'inventory') return player.slots[i]
    if (i >= win.menu.container) return player.slots[i - win.menu.container + 9]
    if (win.kind === 'crafting') return i === 0 ? win.result : win.grid[i - 1]
    return win.furnace.slots[i]
  }

  function set (player, win, i, stack) {
    const value = stack && stack.count > 0 ? stack : null
    if (win.kind === 'inventory') player.slots[i] = value
    else if (i >= win.menu.container) player.slots[i - win.menu.container + 9] = value
    else if (win.kind === 'crafting') { if (i === 0) win.result = value; else win.grid[i - 1] = value } else win.furnace.slots[i] = value
  }

  function inventoryWindow (player) {
    if (!player.inventoryWindow) {
      player.inventoryWindow = { id: 0, kind: 'inventory', menu: MENUS.inventory, stateId: 0, remote: [] }
      player.cursor = null
      player.remoteCursor = ''
    }
    return player.inventoryWindow
  }

  function openWindow (player) {
    return player.openWindow || inventoryWindow(player)
  }

  // -- sending --------------------------------------------------------------------------
  function nextState (win) {
    win.stateId = (win.stateId + 1) & 32767 // vanilla's incrementStateId
    return win.stateId
  }

  function wire (stack) {
    return Item.toNotch(stacks.toItem(stack))
  }

  function sendCursor (player, win) {
    if (hasCursorPacket) player.client.write('set_cursor_item', { contents: wire(player.cursor) })
    else player.client.write('set_slot', { windowId: -1, stateId: nextState(win), slot: -1, item: wire(player.cursor) })
    player.remoteCursor = stacks.keyOf(player.cursor)
  }

  // The whole window (window_items): at opening, and vanilla's answer to a stale click.
  function sendAll (player, win) {
    const items = []
    for (let i = 0; i < win.menu.size; i++) {
      items.push(wire(get(player, win, i)))
      win.remote[i] = stacks.keyOf(get(player, win, i))
    }
    player.remoteCursor = stacks.keyOf(player.cursor)
    player.client.write('window_items', { windowId: win.id, stateId: nextState(win), items, carriedItem: wire(player.cursor) })
  }

  // Every slot (and the cursor) that differs from what the client shows; returns the slots sent.
  function sync (player, win = openWindow(player)) {
    const sent = []
    for (let i = 0; i < win.menu.size; i++) {
      const key = stacks.keyOf(get(player, win, i))
      if (win.remote[i] === key) continue
      win.remote[i] = key
      player.client.write('set_slot', { windowId: win.id, stateId: nextState(win), slot: i, item: wire(get(player, win, i)) })
      sent.push(i)
    }
    if (stacks.keyOf(player.cursor) !== player.remoteCursor) {
      sendCursor(player, win)
      sent.push('cursor')
    }
    return sent
  }

  // -- crafting -------------------------------------------------------------------------
  function gridIds (player, win) {
    const [first, width] = win.menu.grid
    const ids = []
    for (let i = 0; i < width * width; i++) {
      const stack = get(player, win, first + i)
      ids.push(stack ? stacks.idOf(stack.name) : -1)
    }
    return ids
  }

  function updateResult (player, win) {
    if (!win.menu.grid) return
    set(player, win, win.menu.result, crafting.match(gridIds(player, win), win.menu.grid[1]))
  }

  // Take the result once: one item from every grid slot (vanilla's ResultSlot.onTake).
  // Returns the stack made, or null if the grid holds no recipe.
  function craftOnce (player, win) {
    const made = stacks.copy(get(player, win, win.menu.result))
    if (!made) return null
    const [first, width] = win.menu.grid
    for (let i = first; i < first + width * width; i++) {
      const stack = get(player, win, i)
      if (stack) set(player, win, i, { name: stack.name, count: stack.count - 1 })
    }
    updateResult(player, win)
    emit({ event: 'crafted', player: player.username, item: made.name, count: made.count })
    return made
  }

  // -- moving stacks (vanilla's moveItemStackTo) ------------------------------------------
  // Merge `stack` into matching stacks of slots [start, end), then into the first empty one;
  // `reverse` walks from the end. Returns what is left (or null).
  function moveTo (player, win, stack, start, end, reverse) {
    let left = stack.count
    const max = stacks.stackSize(stack.name)
    const order = []
    for (let i = start; i < end; i++) order.push(i)
    if (reverse) order.reverse()
    for (const i of order) {
      const there = get(player, win, i)
      if (left === 0 || !there || there.name !== stack.name || there.count >= max) continue
      const moved = Math.min(left, max - there.count)
      set(player, win, i, { name: there.name, count: there.count + moved })
      left -= moved
    }
    for (const i of order) {
      if (left === 0 || get(player, win, i) || !mayPlace(win, i, stack)) continue
      set(player, win, i, { name: stack.name, count: Math.min(left, max) })
      left -= Math.min(left, max)
    }
    return left > 0 ? { name: stack.name, count: left } : null
  }

  function mayPlace (win, i, stack) {
    if (win.kind === 'furnace' && i === FURNACE.output) return false
    if (win.kind === 'furnace' && i === FURNACE.fuel) return burnTime(stack.name) > 0 || stack.name === 'bucket'
    if (win.menu.grid && i === win.menu.result) return false
    return true
  }

  // The player's inventory in window coordinates: [start, hotbarStart, end).
  function playerRange (win) {
    const start = win.menu.container
    return [start, start + 27, start + INVENTORY_SLOTS]
  }

  // Vanilla's quickMoveStack for the three menus (InventoryMenu, CraftingMenu, FurnaceMenu).
  function shiftClick (player, win, slot) {
    const stack = get(player, win, slot)
    if (!stack) return
    const [start, hotbar, end] = playerRange(win)
    if (win.menu.grid && slot === win.menu.result) {
      // Craft as long as the grid allows and the inventory takes it (hotbar first, from the right).
      let crafts = 0
      for (;;) {
        const made = get(player, win, slot)
        if (!made || !fits(player, win, made, start, end)) break
        craftOnce(player, win)
        moveTo(player, win, made, start, end, true)
        crafts++
      }
      return crafts
    }
    let target
    if (slot < start) {
      target = [[start, end, win.kind === 'furnace' && slot === FURNACE.output]] // container -> inventory
    } else if (win.kind === 'furnace' && smeltsTo(stack.name)) {
      target = [[FURNACE.input, FURNACE.input + 1, false]]
    } else if (win.kind === 'furnace' && burnTime(stack.name) > 0) {
      target = [[FURNACE.fuel, FURNACE.fuel + 1, false]]
    } else if (win.kind === 'crafting') {
      target = [[1, 10, false], slot < hotbar ? [hotbar, end, false] : [start, hotbar, false]] // 1.20+: the grid first
    } else {
      target = [slot < hotbar ? [hotbar, end, false] : [start, hotbar, false]]
    }
    let left = stack
    set(player, win, slot, null)
    for (const [a, b, reverse] of target) {
      if (!left) break
      left = moveTo(player, win, left, a, b, reverse)
    }
    if (left) set(player, win, slot, left)
  }

  function fits (player, win, stack, start, end) {
    let room = 0
    const max = stacks.stackSize(stack.name)
    for (let i = start; i < end; i++) {
      const there = get(player, win, i)
      room += !there ? max : there.name === stack.name ? max - there.count : 0
    }
    return room >= stack.count
  }

  // -- clicks ---------------------------------------------------------------------------
  // Pick-up (0) and number-key (2) clicks on ordinary slots, by prismarine-windows.
  function prismarineClick (player, win, slot, button, mode) {
    const pw = pwindows.createWindow(win.id, pwindows.windows[win.menu.type] ? win.menu.type : win.menu.legacyType, '')
    for (let i = 0; i < win.menu.size; i++) pw.updateSlot(i, stacks.toItem(get(player, win, i)))
    pw.selectedItem = stacks.toItem(player.cursor)
    pw.acceptClick({ mode, mouseButton: button, slot, item: pw.slots[slot] }, 0)
    for (let i = 0; i < win.menu.size; i++) set(player, win, i, stacks.fromItem(pw.slots[i]))
    player.cursor = stacks.fromItem(pw.selectedItem)
  }

  function takeOnly (player, win, slot, button) {
    // The result slot (whole stack, crafting once) and the furnace output (any part).
    const there = get(player, win, slot)
    if (!there) return
    const cursor = player.cursor
    const isResult = win.menu.grid && slot === win.menu.result
    const want = isResult || button === 0 ? there.count : Math.ceil(there.count / 2)
    if (cursor && (cursor.name !== there.name || cursor.count + want > stacks.stackSize(there.name))) return
    if (isResult) craftOnce(player, win)
    else set(player, win, slot, { name: there.name, count: there.count - want })
    player.cursor = { name: there.name, count: (cursor ? cursor.count : 0) + want }
  }

  function dropStack (player, stack) {
    if (!stack) return
    emit({ event: 'dropped', player: player.username, item: stack.name, count: stack.count })
    if (drop) drop(player, stack)
  }

  function apply (player, win, slot, button, mode) {
    const isResult = win.menu.grid && slot === win.menu.result
    const isOutput = win.kind === 'furnace' && slot === FURNACE.output
    if (slot === OUTSIDE) {
      if (mode === 0 && player.cursor) {
        const n = button === 0 ? player.cursor.count : 1
        dropStack(player, { name: player.cursor.name, count: n })
        player.cursor = player.cursor.count > n ? { name: player.cursor.name, count: player.cursor.count - n } : null
      }
      return
    }
    if (slot < 0 || slot >= win.menu.size) return
    switch (mode) {
      case 0:
        if (isResult || isOutput) return takeOnly(player, win, slot, button)
        if (player.cursor && !mayPlace(win, slot, player.cursor) && button <= 1) {
          // A slot that refuses the carried item only gives (vanilla's Slot.mayPlace).
          if (!get(player, win, slot)) return
          if (get(player, win, slot).name !== player.cursor.name) return
        }
        return prismarineClick(player, win, slot, button, 0)
      case 1:
        return shiftClick(player, win, slot)
      case 2: {
        const [, hotbar] = playerRange(win)
        const target = button === 40 ? null : hotbar + button
        if (target === null || button > 8) return // the off-hand swap is not modelled
        if (isResult) {
          if (get(player, win, target)) return
          const made = craftOnce(player, win)
          if (made) set(player, win, target, made)
          return
        }
        if (get(player, win, target) && !mayPlace(win, slot, get(player, win, target))) return
        return prismarineClick(player, win, slot, button, 2)
      }
      case 4: {
        const there = get(player, win, slot)
        if (!there || player.cursor) return
        if (isResult) return dropStack(player, craftOnce(player, win))
        const n = button === 1 ? there.count : 1
        set(player, win, slot, { name: there.name, count: there.count - n })
        return dropStack(player, { name: there.name, count: n })
      }
      case 6: {
        // Double-click: gather the carried kind from the other slots (vanilla: non-full stacks first).
        const cursor = player.cursor
        if (!cursor) return
        const max = stacks.stackSize(cursor.name)
        for (const fullPass of [false, true]) {
          for (let i = 0; i < win.menu.size && player.cursor.count < max; i++) {
            const there = get(player, win, i)
            if (i === win.menu.result || !there || there.name !== cursor.name) continue
            if (!fullPass && there.count >= max) continue
            const n = Math.min(there.count, max - player.cursor.count)
            set(player, win, i, { name: there.name, count: there.count - n })
            player.cursor = { name: cursor.name, count: player.cursor.count + n }
          }
        }
        return
      }
      case 5:
        return drag(player, win, slot, button)
      default:
        // Middle clicks (3) copy a stack in creative only: nothing happens in survival.
    }
  }

  // Dragging (mode 5), as vanilla's AbstractContainerMenu.doClick QUICK_CRAFT: a start
  // (button 0 left, 4 right), the slots passed over (1, 5), an end (2, 6) that spreads the
  // carried stack evenly (left) or one each (right) over them. Any step out of order resets
  // the drag and changes nothing: mineflayer ends a drag that never started, with a stale
  // state id, to ask for the window's contents.
  function drag (player, win, slot, button) {
    const phase = button & 3
    const kind = button >> 2
    if (phase === 0) {
      win.drag = player.cursor && kind <= 1 ? { kind, slots: [] } : null
      return
    }
    const dragging = win.drag
    if (!dragging || dragging.kind !== kind) { win.drag = null; return }
    if (phase === 1) {
      const there = slot >= 0 && slot < win.menu.size ? get(player, win, slot) : undefined
      const fits = there === null || (there && there.name === player.cursor.name)
      if (fits && mayPlace(win, slot, player.cursor) && !dragging.slots.includes(slot) &&
          dragging.slots.length < player.cursor.count) dragging.slots.push(slot)
      return
    }
    win.drag = null
    if (phase !== 2 || dragging.slots.length === 0) return
    if (dragging.slots.length === 1) return apply(player, win, dragging.slots[0], kind, 0)
    const cursor = player.cursor
    const each = kind === 0 ? Math.floor(cursor.count / dragging.slots.length) : 1
    const max = stacks.stackSize(cursor.name)
    let left = cursor.count
    for (const i of dragging.slots) {
      const there = get(player, win, i)
      const now = there ? there.count : 0
      const put = Math.min(each, max - now, left)
      if (put <= 0) continue
      set(player, win, i, { name: cursor.name, count: now + put })
      left -= put
    }
    player.cursor = left > 0 ? { name: cursor.name, count: left } : null
  }

  function snapshot (player, win) {
    const keys = []
    for (let i = 0; i < win.menu.size; i++) keys.push(stacks.keyOf(get(player, win, i)))
    keys.push(stacks.keyOf(player.cursor))
    return keys.join(',')
  }

  // Applies a click; returns what vanilla's AbstractContainerMenu.clicked would, and a function
  // that sends the crafting result if the grid changed (the result goes last, after the other
  // corrections, so a client that clicks on as soon as it has the result clicks with the
  // newest state).
  function applyClick (player, win, packet) {
    const gridBefore = win.menu.grid ? gridIds(player, win).join() : ''
    const crafts = apply(player, win, packet.slot, packet.mouseButton, packet.mode)
    updateResult(player, win)
    // Vanilla's CraftingMenu.slotChangedCraftingGrid sends the result slot whenever the grid
    // changes, changed or not; mineflayer waits for it after every grid click.
    const resultDue = win.menu.grid && gridIds(player, win).join() !== gridBefore
    if (resultDue) win.remote[win.menu.result] = stacks.keyOf(get(player, win, win.menu.result))
    return {
      crafts,
      sendResult () {
        if (!resultDue) return
        const result = get(player, win, win.menu.result)
        player.client.write('set_slot', { windowId: win.id, stateId: nextState(win), slot: win.menu.result, item: wire(result) })
      }
    }
  }

  function click (player, packet) {
    if (player.dead) return
    const win = openWindow(player)
    if (packet.windowId !== win.id) return // vanilla ignores clicks on a window that is not open
    if (confirmsClicks) return confirmedClick(player, win, packet)
    const stale = packet.stateId !== undefined && packet.stateId !== win.stateId
    const claimed = new Set()
    for (const change of packet.changedSlots || []) {
      if (change.location < 0 || change.location >= win.menu.size) continue
      win.remote[change.location] = stacks.claimKey(change.item)
      claimed.add(change.location)
    }
    player.remoteCursor = stacks.claimKey(packet.cursorItem)
    const before = snapshot(player, win)
    const { sendResult } = applyClick(player, win, packet)
    if (stale) {
      const changed = snapshot(player, win) !== before
      sendAll(player, win)
      sendResult()
      if (changed) {
        emit({ event: 'click_resync', player: player.username, window: win.id, reason: 'state_id', slots: [] })
      } else {
        emit({ event: 'window_sync', player: player.username, window: win.id })
      }
      return
    }
    const sent = sync(player, win)
    sendResult()
    // A shift-click on the result crafts as often as the grid allows; a client predicts
    // only the first craft, so vanilla's corrections after it are no disagreement.
    const craftMany = packet.mode === 1 && win.menu.grid && packet.slot === win.menu.result
    // Only claims are checked: a slot the client did not claim is one it left to the server
    // (mineflayer claims only the clicked slot when it takes a result; vanilla corrects the
    // rest silently, and so do we).
    // The result slot is the server's to fill: no client predicts it.
    const resultSlot = win.menu.grid ? win.menu.result : -1
    const contradicted = craftMany ? [] : sent.filter((s) => s === 'cursor' || (claimed.has(s) && s !== resultSlot))
    if (contradicted.length) {
      emit({ event: 'click_resync', player: player.username, window: win.id, reason: 'slots', slots: contradicted })
    }
  }

  // Until 1.16 (vanilla 1.12's NetHandlerPlayServer.processClickWindow): a click carries an
  // action number and the item the client expects the click to return (clickReturn); the
  // server answers with a transaction. Accepted, the client's prediction stands: the server
  // sends nothing but a changed crafting result (vanilla's isChangingQuantityOnly). Refused,
  // the whole window and the cursor are sent and the window takes no click until the client
  // confirms the refusal with its own transaction of that action number (vanilla's canCraft).
  function confirmedClick (player, win, packet) {
    if (win.refused !== undefined) return // vanilla drops the click unanswered
    const slot = packet.slot
    const clicked = slot >= 0 && slot < win.menu.size ? stacks.copy(get(player, win, slot)) : null
    const before = snapshot(player, win)
    const { crafts, sendResult } = applyClick(player, win, packet)
    const claimed = stacks.claimKey(packet.item)
    const expected = stacks.keyOf(clickReturn(player, win, packet, clicked, crafts))
    const accepted = claimed === expected
    player.client.write('transaction', { windowId: win.id, action: packet.action, accepted })
    if (accepted) {
      for (let i = 0; i < win.menu.size; i++) win.remote[i] = stacks.keyOf(get(player, win, i))
      player.remoteCursor = stacks.keyOf(player.cursor)
      sendResult()
      return
    }
    win.refused = packet.action
    sendAll(player, win)
    sendCursor(player, win)
    // A refused click that changed nothing is how a client asks for the window's contents
    // (mcagent's resync click outside the window), as a stale one is from 1.17.
    if (snapshot(player, win) === before) return emit({ event: 'window_sync', player: player.username, window: win.id })
    emit({
      event: 'click_resync', player: player.username, window: win.id, reason: 'slots', slots: [slot],
      mode: packet.mode, button: packet.mouseButton, claimed, expected // items as "id x count"
    })
  }

  // What vanilla 1.12's Container.slotClick returns, which the client's item must equal: a
  // pick-up, the clicked slot's stack before it; every other click nothing, but a shift-click
  // that leaves the slot holding the same item (vanilla repeats transferStackInSlot while it
  // does, returning the stack each time): a partial move, or a crafting result taken and
  // refilled (crafted more than once, or once with no room for a second).
  function clickReturn (player, win, packet, clicked, crafts) {
    if (packet.mode === 0) return clicked
    if (packet.mode !== 1 || !clicked) return null
    const after = get(player, win, packet.slot)
    const same = Boolean(after && after.name === clicked.name)
    if (win.menu.grid && packet.slot === win.menu.result) return crafts > 1 || (crafts === 1 && same) ? clicked : null
    return same && after.count < clicked.count ? clicked : null
  }

  // The client's transaction: its confirmation of a refused click.
  function confirm (player, packet) {
    const win = openWindow(player)
    if (win.refused !== undefined && packet.windowId === win.id && packet.action === win.refused) delete win.refused
  }

  // -- opening and closing ----------------------------------------------------------------
  // A use of `block` at `pos`: opens its window and returns true if it has one.
  function use (player, pos, block) {
    if (player.dead) return false
    const kind = block.name === 'crafting_table' ? 'crafting' : block.name === 'furnace' ? 'furnace' : null
    if (!kind) return false
    if (distance(player, pos) > REACH) return true
    if (player.openWindow) close(player, false)
    inventoryWindow(player)
    const id = nextWindowId
    nextWindowId = nextWindowId % 100 + 1 // vanilla's containerCounter
    const win = { id, kind, menu: MENUS[kind], stateId: 0, remote: [], pos: { x: pos.x, y: pos.y, z: pos.z } }
    if (kind === 'crafting') {
      win.grid = new Array(9).fill(null)
      win.result = null
    } else {
      const key = posKey(pos)
      if (!furnaces.has(key)) furnaces.set(key, new Furnace(win.pos))
      win.furnace = furnaces.get(key)
      win.shown = [-1, -1, -1, -1]
    }
    player.openWindow = win
    const title = kind === 'crafting' ? 'Crafting' : 'Furnace'
    player.client.write('open_window', openWindowPacket(win.menu, id, { translate: kind === 'crafting' ? 'container.crafting' : 'container.furnace', fallback: title }))
    sendAll(player, win)
    if (win.furnace) sendProperties(player, win)
    emit({ event: 'window_opened', player: player.username, window: id, kind, x: pos.x, y: pos.y, z: pos.z })
    return true
  }

  // open_window: until 1.13 the type is vanilla's name and the packet counts the container's
  // slots; since 1.14 the type is the menu registry's number.
  function openWindowPacket (menu, windowId, title) {
    const windowTitle = packets.component('open_window', 'windowTitle', title)
    if (packets.fieldType('open_window', 'slotCount') !== undefined) {
      return { windowId, inventoryType: menu.legacyType || menu.type, windowTitle, slotCount: menu.legacySlots }
    }
    return { windowId, inventoryType: pwindows.windows[menu.type].type, windowTitle }
  }

  function distance (player, pos) {
    return Math.hypot(player.pos.x - (pos.x + 0.5), player.pos.y - (pos.y + 0.5), player.pos.z - (pos.z + 0.5))
  }

  // Put a stack back in the player's inventory (hotbar first), dropping what does not fit
  // (vanilla's Inventory.placeItemBackInInventory).
  function giveBack (player, stack) {
    if (!stack) return
    const inv = inventoryWindow(player)
    let left = moveTo(player, inv, stack, 36, 45, false)
    if (left) left = moveTo(player, inv, left, 9, 36, false)
    dropStack(player, left)
  }

  // The client closed `windowId` (or, with `tell`, the server closes the open window).
  function close (player, tell, windowId) {
    const win = player.openWindow
    if (windowId === 0 || (!win && windowId === undefined)) {
      // Closing the inventory: its grid goes back into the inventory (vanilla's InventoryMenu.removed).
      const inv = inventoryWindow(player)
      giveBack(player, player.cursor)
      player.cursor = null
      for (let i = 1; i <= 4; i++) {
        const stack = player.slots[i]
        player.slots[i] = null
        giveBack(player, stack)
      }
      player.slots[0] = null
      sync(player, inv)
      return
    }
    if (!win || (windowId !== undefined && windowId !== win.id)) return
    player.openWindow = null
    if (tell) player.client.write('close_window', { windowId: win.id })
    giveBack(player, player.cursor)
    player.cursor = null
    // Vanilla's ServerPlayer.doCloseContainer: the inventory menu takes over what the client
    // was shown of the player's slots (transferState), so only real changes are resent.
    const inv = inventoryWindow(player)
    for (let i = 0; i < INVENTORY_SLOTS; i++) inv.remote[9 + i] = win.remote[win.menu.container + i]
    if (win.kind === 'crafting') for (const stack of win.grid) giveBack(player, stack)
    emit({ event: 'window_closed', player: player.username, window: win.id, kind: win.kind })
    sync(player, inv)
  }

  // -- ticking --------------------------------------------------------------------------
  function sendProperties (player, win) {
    const now = win.furnace.properties()
    now.forEach((value, property) => {
      if (win.shown[property] === value) return
      win.shown[property] = value
      player.client.write('craft_progress_bar', { windowId: win.id, property, value })
    })
  }

  function tick (players) {
    for (const furnace of furnaces.values()) {
      const { smelted } = furnace.tick(stacks.stackSize)
      if (smelted) emit({ event: 'smelted', x: furnace.pos.x, y: furnace.pos.y, z: furnace.pos.z, item: smelted })
    }
    for (const player of players) {
      const win = player.openWindow
      if (!win) continue
      if (player.dead || distance(player, win.pos) > REACH) { close(player, true); continue }
      if (win.furnace) {
        sync(player, win)
        sendProperties(player, win)
      }
    }
  }

  // The block at `pos` is gone: close its window for everyone, drop a furnace's contents.
  function blockRemoved (pos, players, dropAt) {
    for (const player of players) {
      if (player.openWindow && posKey(player.openWindow.pos) === posKey(pos)) close(player, true)
    }
    const furnace = furnaces.get(posKey(pos))
    if (!furnace) return
    furnaces.delete(posKey(pos))
    for (const stack of furnace.slots) if (stack && dropAt) dropAt(pos, stack)
  }

  // -- for the test driver ----------------------------------------------------------------
  function describe (player) {
    const win = openWindow(player)
    const slots = []
    for (let i = 0; i < win.menu.size; i++) slots.push(get(player, win, i))
    return { window: win.id, kind: win.kind, stateId: win.stateId, slots, cursor: player.cursor }
  }

  function furnaceAt (pos) {
    const furnace = furnaces.get(posKey(pos))
    if (!furnace) return null
    return { slots: furnace.slots, litTime: furnace.litTime, litDuration: furnace.litDuration, progress: furnace.progress }
  }

  function leave (player) {
    if (player.openWindow) close(player, false)
  }

  return {
    click,
    confirm,
    use,
    close,
    tick,
    blockRemoved,
    leave,
    describe,
    furnaceAt,
    sendAll: (player) => sendAll(player, openWindow(player)),
    sync: (player) => sync(player)
  }
}
