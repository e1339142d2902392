'use strict'
// Item stacks as the survival test server keeps them ({name, count}, the entries of
// world.js's `slots`), as prismarine-item's Item (what prismarine-windows clicks on), and
// as a client claims them in a window click: a whole Slot until 1.21.4, a HashedSlot (item
// id, count and component hashes) from 1.21.5. Our items carry no components, so a claim
// is compared by item id and count.

module.exports = function stacks (registry, Item) {
  function idOf (name) {
    const item = registry.itemsByName[name]
    if (!item) throw new Error('unknown item: ' + name)
    return item.id
  }

  function toItem (stack) {
    return stack ? new Item(idOf(stack.name), stack.count) : null
  }

  function fromItem (item) {
    return item && item.count > 0 ? { name: registry.items[item.type].name, count: item.count } : null
  }

  function stackSize (name) {
    return registry.itemsByName[name].stackSize
  }

  // A stack's identity for comparisons: "id x count", or "" for nothing.
  function keyOf (stack) {
    return stack ? idOf(stack.name) + 'x' + stack.count : ''
  }

  // The same for a client's claim (a Slot or an optional HashedSlot).
  function claimKey (wire) {
    if (wire === undefined || wire === null) return ''
    if (wire.itemId !== undefined) return wire.itemCount > 0 ? wire.itemId + 'x' + wire.itemCount : ''
    const item = Item.fromNotch(wire)
    return item && item.count > 0 ? item.type + 'x' + item.count : ''
  }

  function copy (stack) {
    return stack ? { name: stack.name, count: stack.count } : null
  }

  return { idOf, toItem, fromItem, stackSize, keyOf, claimKey, copy }
}
