#!/usr/bin/env python3
"""Generates the layer's device dispatch table and vkCmd* pass-through hooks.

Usage: lyr_vk_gen.py VK_XML CAPTURE_H OUT.h OUT.c

From the Vulkan registry (vk.xml, the one the installed headers were made
from) it emits:

* struct lyr_device_vk: one pointer per device-level command (first
  parameter VkDevice, VkQueue or VkCommandBuffer) of every core version and
  every extension the registry marks as supported by Vulkan, aliases
  included, and lyr_device_vk_load() filling it from the next layer's
  vkGetDeviceProcAddr;
* for every vkCmd* command among them, a pass-through hook that records the
  command in the command buffer's shadow as CAP_CMD_UNSUPPORTED by name
  (lyr_cmd_unmodelled) and forwards, and lyr_cmd_passthrough_hook(name) to
  find it.  The hand-written hooks in layer/lyr_commands.c take precedence;
  these catch everything else, so no command buffer command passes the layer
  unseen.

* for each command of WORD_STATES and its aliases, a hook that records the
  command's values as words of dynamic state (lyr_cmd_state_words; the
  state is VK_DYNAMIC_STATE_ and the command's name after vkCmdSet, in
  upper case): one word per value, floats by their bits, a `first*` or
  `faceMask` parameter as the record's `first`; for each command of
  ARRAY_STATES and its aliases, the same with the words of the array the
  command passes (count times the element's size in words);
* for each command of RECORDED, a hook that hands the command's arguments
  after the command buffer to the hand-written lyr_record_<command it
  aliases>() of lyr_commands.c while the command buffer records, then
  forwards;
* for each transfer command of TRANSFERS (vkCmdCopyBuffer, ...), the hooks
  of its version 2 (and the version 2's aliases), RECORDED hooks that hand
  the info structure to lyr_record_<version 2>(), and the hook of version
  1, which promotes its regions and arguments into that info structure and
  takes the same path;
* for each command of TRACKED, a hook that hands the arguments after the
  device (pAllocator left out) to the hand-written lyr_track_<command it
  aliases>() of lyr_objects.c or lyr_commands.c: after the call for
  vkCreate* and vkAllocate* (only when it succeeded), before it for the
  others (destroy, free, reset, update); and
  lyr_vk_gen_hook(name) to find any of these hooks;
* for each pair of COPIES, lyr_fill_<trace record>(): every member of the
  trace record (capture/capture.h) whose name is the snake case of a
  scalar or handle member of the create info, or of a member of one of its
  structure members (extent.width -> width), assigned from it, handles
  through LYR_H; lyr_objects.c sets the members it leaves; and for each
  state of PIPELINE_STATES, lyr_fill_cap_pipeline_<state>() that copies
  the members the table names; the lyr_track_*() of RECORD_TRACKERS, whose
  shadow is the filled record alone;
* for each structure of PROMOTED, lyr_promote_<Vk struct>(): the structure's
  version 2 (VkBufferCopy -> VkBufferCopy2, ...) with its sType set and
  every member that both versions declare alike copied, so the layer
  records a version 1 command or create info by converting it to version 2
  and sharing one path.  Members the versions declare differently
  (pointers to other version 1 structures) are left zero for the caller.

Commands of platform extensions (win32, xlib, provisional, ...) are guarded
by the platform's macro, as in the headers, so the code holds exactly what
the headers in use declare.  Nothing here is hand-maintained: newer headers
bring their commands along.

Owns: what is mechanical per command.  Must not: emit a hook that shadows
anything beyond the command's name (what a command means belongs in the
hand-written hooks of lyr_commands.c).
"""
import re
import sys
import xml.etree.ElementTree as ET

DEVICE_HANDLES = ('VkDevice', 'VkQueue', 'VkCommandBuffer')
# vkCmdSet* commands that set one value of dynamic state, recorded as one
# word (extended dynamic state 1 to 3; their EXT aliases come along).
WORD_STATES = ('CullMode FrontFace PrimitiveTopology DepthTestEnable DepthWriteEnable '
               'DepthCompareOp DepthBoundsTestEnable StencilTestEnable '
               'RasterizerDiscardEnable DepthBiasEnable PrimitiveRestartEnable '
               'PatchControlPointsEXT LogicOpEXT PolygonModeEXT DepthClampEnableEXT '
               'DepthClipEnableEXT DepthClipNegativeOneToOneEXT ProvokingVertexModeEXT '
               'LineRasterizationModeEXT LineStippleEnableEXT RasterizationSamplesEXT '
               'AlphaToCoverageEnableEXT AlphaToOneEnableEXT LogicOpEnableEXT LineWidth '
               'DepthBias DepthBounds StencilCompareMask StencilWriteMask StencilReference '
               'StencilOp LineStippleEXT').split()
# vkCmdSet* commands that set an array of values (count, array, and maybe a
# first index), recorded as the array's words.
ARRAY_STATES = ('Viewport Scissor ViewportWithCount ScissorWithCount BlendConstants '
                'ColorWriteEnableEXT ColorBlendEnableEXT ColorWriteMaskEXT '
                'ColorBlendEquationEXT').split()
# vkCmd* commands recorded by a hand-written lyr_record_*() (see above).  An
# alias is listed by name: one left out stays a pass-through.
RECORDED = ('vkCmdBeginRenderPass vkCmdBeginRenderPass2 vkCmdBeginRenderPass2KHR '
            'vkCmdNextSubpass vkCmdNextSubpass2 vkCmdNextSubpass2KHR vkCmdEndRenderPass '
            'vkCmdEndRenderPass2 vkCmdEndRenderPass2KHR vkCmdBeginRendering '
            'vkCmdBeginRenderingKHR vkCmdEndRendering vkCmdEndRenderingKHR vkCmdBindPipeline '
            'vkCmdBindDescriptorSets vkCmdPushDescriptorSetKHR '
            'vkCmdPushDescriptorSetWithTemplateKHR vkCmdPushConstants vkCmdBindVertexBuffers '
            'vkCmdBindVertexBuffers2 vkCmdBindVertexBuffers2EXT vkCmdBindIndexBuffer '
            'vkCmdSetSampleMaskEXT vkCmdSetVertexInputEXT vkCmdDispatch vkCmdDispatchBase '
            'vkCmdDispatchBaseKHR vkCmdDispatchIndirect vkCmdDraw vkCmdDrawIndexed '
            'vkCmdDrawIndirect vkCmdDrawIndexedIndirect vkCmdDrawIndirectCount '
            'vkCmdDrawIndirectCountKHR vkCmdDrawIndexedIndirectCount '
            'vkCmdDrawIndexedIndirectCountKHR vkCmdDrawMultiEXT vkCmdDrawMultiIndexedEXT '
            'vkCmdClearColorImage vkCmdClearDepthStencilImage vkCmdClearAttachments '
            'vkCmdUpdateBuffer vkCmdFillBuffer vkCmdPipelineBarrier vkCmdPipelineBarrier2 '
            'vkCmdPipelineBarrier2KHR vkCmdExecuteCommands').split()
# Device commands whose objects lyr_objects.c or lyr_commands.c shadows by a
# hand-written lyr_track_*() (see above); aliases by name, as for RECORDED.
TRACKED = ('vkAllocateCommandBuffers vkFreeCommandBuffers vkCreateCommandPool '
           'vkDestroyCommandPool vkResetCommandPool vkAllocateDescriptorSets '
           'vkFreeDescriptorSets vkDestroyDescriptorPool vkResetDescriptorPool '
           'vkCreateImageView vkCreateBufferView vkCreateSampler vkCreateShaderModule '
           'vkCreateDescriptorSetLayout vkCreatePipelineLayout vkCreateRenderPass '
           'vkCreateRenderPass2 vkCreateRenderPass2KHR vkCreateFramebuffer '
           'vkCreateDescriptorUpdateTemplate vkCreateDescriptorUpdateTemplateKHR '
           'vkDestroyDescriptorUpdateTemplate vkDestroyDescriptorUpdateTemplateKHR '
           'vkUpdateDescriptorSetWithTemplate vkUpdateDescriptorSetWithTemplateKHR '
           'vkCreateGraphicsPipelines vkCreateComputePipelines').split()
VENDOR_SUFFIXES = ('EXT', 'KHR')
# Version 1 transfer commands: recorded from their version 2 form only.
TRANSFERS = ('vkCmdCopyBuffer vkCmdCopyImage vkCmdResolveImage vkCmdCopyBufferToImage '
             'vkCmdCopyImageToBuffer vkCmdBlitImage').split()
# Version 1 structures whose version 2 (the name with "2" appended) the
# layer records in their place.
PROMOTED = ('VkAttachmentDescription VkAttachmentReference VkSubpassDescription '
            'VkSubpassDependency VkBufferCopy VkImageCopy VkImageBlit VkImageResolve '
            'VkBufferImageCopy').split()
# TRACKED commands whose lyr_track_*() is generated too: the trace record
# filled from the create info is the whole shadow, with the viewed object
# (a member of the record) as its parent.
RECORD_TRACKERS = {'vkCreateImageView': ('cap_image_view', 'image'),
                   'vkCreateBufferView': ('cap_buffer_view', 'buffer')}
# Trace records filled from a create info: record:Vulkan structure.
COPIES = ('cap_buffer:VkBufferCreateInfo cap_image:VkImageCreateInfo '
          'cap_image_view:VkImageViewCreateInfo cap_buffer_view:VkBufferViewCreateInfo '
          'cap_sampler:VkSamplerCreateInfo cap_framebuffer:VkFramebufferCreateInfo').split()
# Pipeline states copied into struct cap_pipeline by
# lyr_fill_cap_pipeline_<state>(): the trace members, as trace=Vulkan where
# the names differ.
PIPELINE_STATES = {
    'VkPipelineRasterizationStateCreateInfo':
        'depth_clamp_enable rasterizer_discard=rasterizerDiscardEnable polygon_mode cull_mode '
        'front_face depth_bias_enable depth_bias_constant=depthBiasConstantFactor '
        'depth_bias_clamp depth_bias_slope=depthBiasSlopeFactor line_width',
    'VkPipelineMultisampleStateCreateInfo':
        'samples=rasterizationSamples sample_shading_enable min_sample_shading '
        'alpha_to_coverage=alphaToCoverageEnable alpha_to_one=alphaToOneEnable',
    'VkPipelineDepthStencilStateCreateInfo':
        'depth_test=depthTestEnable depth_write=depthWriteEnable depth_compare=depthCompareOp '
        'depth_bounds_test=depthBoundsTestEnable stencil_test=stencilTestEnable '
        'min_depth_bounds max_depth_bounds',
}
NAME_MAX = 55  # struct cap_cmd_unsupported: char name[56], NUL included


def api_ok(elem):
    api = elem.get('api')
    return api is None or 'vulkan' in api.split(',')


def param_decl(param):
    return ' '.join(''.join(param.itertext()).split())


def member_decl(member):
    """A member's declaration without its name and comments: 'const T*', 'T[2]'."""
    parts = [member.text or '']
    for child in member:
        if child.tag not in ('comment', 'name'):
            parts.append(child.text or '')
        parts.append(child.tail or '')
    return ' '.join(''.join(parts).split())


def struct_members(reg, name):
    """[(member name, declaration, sType value)] of struct `name`."""
    for t in reg.find('types'):
        if t.get('category') == 'struct' and t.get('name') == name and api_ok(t):
            return [(m.find('name').text, member_decl(m), m.get('values'))
                    for m in t.findall('member') if api_ok(m)]
    sys.exit('%s: no such structure in the registry' % name)


def snake(name):
    """addressModeU -> address_mode_u."""
    return re.sub(r'(?<=[a-z0-9])(?=[A-Z])', '_', name).lower()


def record_members(header, record):
    """[(member name, element count or None)] of `struct record` in
    capture/capture.h's text."""
    body = re.search(r'^struct %s \{\n(.*?)^\};' % record, header, re.M | re.S)
    if not body:
        sys.exit('%s: no such structure in capture/capture.h' % record)
    return [(name, int(n) if n else None) for name, n in
            re.findall(r'^\s+[\w ]+?\s(\w+)(?:\[(\d+)\])?;', body.group(1), re.M)]


def fill_function(reg, header, record, info):
    """The C definition of lyr_fill_<record>() (see the module comment)."""
    category = {t.get('name') or t.findtext('name'): t.get('category')
                for t in reg.find('types') if api_ok(t)}
    sources = {}  # snake name -> (path in the Vulkan structure, is a handle)
    arrays = {}   # snake name of a structure member -> [paths of its members]

    def offer(path, member, decl, depth):
        kind = category.get(re.sub(r'^const |\*$', '', decl).strip())
        if '*' in decl or '[' in decl or member in ('sType', 'pNext'):
            return
        if kind == 'struct':
            if depth == 0:
                arrays[snake(member)] = []
                for name, sub, _ in struct_members(reg, decl):
                    arrays[snake(member)].append(member + '.' + name)
                    offer(path + member + '.', name, sub, 1)
            return
        sources.setdefault(snake(member), (path + member, kind == 'handle'))

    for member, decl, _ in struct_members(reg, info):
        offer('', member, decl, 0)
    body = ['static inline void',
            'lyr_fill_%s(struct %s *out, const %s *in)' % (record, record, info), '{']
    for member, count in record_members(header, record):
        if count is None and member in sources:
            path, handle = sources[member]
            body.append('    out->%s = %s;' % (member, '(uint64_t)(uintptr_t)in->%s' % path
                                                if handle else 'in->%s' % path))
        elif count is not None and len(arrays.get(member, ())) == count:
            # An array of the members of a structure: components[4] from
            # VkComponentMapping's r, g, b, a.
            for i, path in enumerate(arrays[member]):
                body.append('    out->%s[%d] = in->%s;' % (member, i, path))
    return body + ['}']


def record_tracker(name, command, record, parent):
    """The C definition of lyr_track_<name>() for RECORD_TRACKERS: the trace
    record filled from the create info and registered with the viewed
    object `parent` (a member of the record) as the shadow's parent."""
    _, decls, params, _ = command
    obj = record[len('cap_'):].upper()
    info, out = [params[i] for i in range(1, len(params))
                 if 'VkAllocationCallbacks' not in decls[i]]
    return ['void',
            'lyr_track_%s(%s)' % (name[2:], ', '.join(['struct lyr_device *dev'] +
                                                      tracked_params(command)[0])),
            '{',
            '    struct %s r = {.handle = (uint64_t)(uintptr_t)*%s};' % (record, out),
            '    lyr_fill_%s(&r, %s);' % (record, info),
            '    lyr_object_put_rec(dev, CAP_OBJ_%s, CAP_BLOCK_%s, &r, sizeof(r),' % (obj, obj),
            '                       (struct lyr_object){.parent = r.%s});' % parent,
            '}']


def pipeline_state_function(reg, header, info, members):
    """The C function name and definition of lyr_fill_cap_pipeline_<state>()
    for PIPELINE_STATES entry `info`."""
    state = snake(re.fullmatch(r'VkPipeline(\w+)StateCreateInfo', info).group(1))
    name = 'lyr_fill_cap_pipeline_%s' % state
    have = {n for n, _, _ in struct_members(reg, info)}
    record = {n for n, _ in record_members(header, 'cap_pipeline')}
    body = ['static inline void', '%s(struct cap_pipeline *out, const %s *in)' % (name, info),
            '{']
    for pair in members.split():
        out, _, src = pair.partition('=')
        src = src or re.sub(r'_(\w)', lambda m: m.group(1).upper(), out)
        if out not in record or src not in have:
            sys.exit('%s: no member %s for cap_pipeline.%s' % (info, src, out))
        body.append('    out->%s = in->%s;' % (out, src))
    return name, body + ['}']


def promote_function(reg, v1):
    """The C definition of lyr_promote_<v1>() (see the module comment)."""
    v2 = v1 + '2'
    old = {n: d for n, d, _ in struct_members(reg, v1)}
    lost = set(old) - {n for n, _, _ in struct_members(reg, v2)}
    if lost:
        sys.exit('%s: %s has no member %s' % (v1, v2, ', '.join(sorted(lost))))
    body = ['static inline %s' % v2, 'lyr_promote_%s(const %s *in)' % (v1, v1), '{']
    copies = []
    for name, decl, values in struct_members(reg, v2):
        if name == 'sType':
            body.append('    %s out = {.sType = %s};' % (v2, values))
        elif name in old and old[name] == decl:
            if '[' in decl:
                copies.append('    memcpy(out.%s, in->%s, sizeof(out.%s));' % (name, name, name))
            else:
                copies.append('    out.%s = in->%s;' % (name, name))
    return body + copies + ['    return out;', '}']


def dynamic_state(command):
    """VK_DYNAMIC_STATE_* of a one-word vkCmdSet* command: vkCmdSetLogicOpEXT
    -> VK_DYNAMIC_STATE_LOGIC_OP_EXT."""
    base = command[len('vkCmdSet'):]
    suffix = ''
    for tag in VENDOR_SUFFIXES:
        if base.endswith(tag):
            base, suffix = base[:-len(tag)], '_' + tag
    snake = re.sub(r'(?<=[a-z0-9])(?=[A-Z])', '_', base).upper()
    return 'VK_DYNAMIC_STATE_' + snake + suffix


def state_hook(name, base, command, array):
    """The C definition of the dynamic state hook of command `name`, an
    alias of WORD_STATES or ARRAY_STATES (`array`) command `base` or `base`
    itself."""
    ret, decls, names, _ = command
    if ret != 'void':
        sys.exit('%s: not a vkCmdSet* command' % name)
    first, words, count, body = '0', [], None, []
    for decl, param in zip(decls[1:], names[1:]):
        if param.startswith('first') or param == 'faceMask':
            first = param
        elif array and param.endswith('Count'):
            count = param
        elif array:
            words.append(param)
            elem = re.search(r'\[(\d+)\]$', decl)
            count = elem.group(1) if elem else count
        elif decl.startswith('float '):
            body.append('    memcpy(&w[%d], &%s, sizeof(w[%d]));' % (len(words), param,
                                                                     len(words)))
            words.append(None)
        else:
            words.append('(uint32_t)%s' % param)
    if array:
        if len(words) != 1 or count is None:
            sys.exit('%s: not an array state command' % name)
        body = ['    _Static_assert(sizeof(*%s) %% sizeof(uint32_t) == 0, "whole words");'
                % words[0]]
        values, n = words[0], '%s * (uint32_t)(sizeof(*%s) / sizeof(uint32_t))' % (count,
                                                                                 words[0])
    else:
        body = ['    uint32_t w[%d] = {%s};' % (len(words), ', '.join(
            w or '0' for w in words))] + body
        values, n = 'w', str(len(words))
    return ['static VKAPI_ATTR void VKAPI_CALL',
            'lyr_%s(%s)' % (name[2:], ', '.join(decls)),
            '{'] + body + [
            '    struct lyr_device *dev = lyr_cmd_state_words(%s, %s, %s, %s, %s);'
            % (names[0], dynamic_state(base), first, values, n),
            '    dev->vk.%s(%s);' % (name[2:], ', '.join(names)),
            '}']


def recorded_hook(name, target, command):
    """The C definition of the hook of RECORDED command `name`, `target` or
    an alias of it."""
    ret, decls, params, first = command
    if ret != 'void' or first != 'VkCommandBuffer':
        sys.exit('%s: not a command buffer command' % name)
    return ['static VKAPI_ATTR void VKAPI_CALL',
            'lyr_%s(%s)' % (name[2:], ', '.join(decls)),
            '{',
            '    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(%s));'
            % params[0],
            '    struct lyr_cmdbuf *c = lyr_cmdbuf_recording(dev, %s);' % params[0],
            '    if (c) {',
            '        lyr_record_%s(%s);' % (target[2:], ', '.join(['c'] + params[1:])),
            '    }',
            '    dev->vk.%s(%s);' % (name[2:], ', '.join(params)),
            '}']


def tracked_params(command):
    """The declarations and names of a TRACKED command's parameters that its
    lyr_track_*() takes: those after the device, pAllocator left out."""
    _, decls, params, _ = command
    keep = [i for i in range(1, len(params)) if 'VkAllocationCallbacks' not in decls[i]]
    return [decls[i] for i in keep], [params[i] for i in keep]


def tracked_hook(name, target, command, success):
    """The C definition of the hook of TRACKED command `name`, `target` or an
    alias of it; `success` lists the command's success codes."""
    ret, decls, params, first = command
    if first != 'VkDevice':
        sys.exit('%s: not a device command' % name)
    track = 'lyr_track_%s(%s);' % (target[2:], ', '.join(['dev'] + tracked_params(command)[1]))
    call = 'dev->vk.%s(%s)' % (name[2:], ', '.join(params))
    out = ['static VKAPI_ATTR %s VKAPI_CALL' % ret,
           'lyr_%s(%s)' % (name[2:], ', '.join(decls)),
           '{',
           '    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(%s));' % params[0]]
    if ret not in ('void', 'VkResult'):
        sys.exit('%s: returns neither void nor VkResult' % name)
    if not name.startswith(('vkCreate', 'vkAllocate')):
        return out + ['    %s' % track, '    %s%s;' % ('' if ret == 'void' else 'return ', call),
                      '}']
    # Commands with success codes besides VK_SUCCESS (pipelines: some may
    # be missing after VK_PIPELINE_COMPILE_REQUIRED) are tracked on any.
    ok = 'res == VK_SUCCESS' if success == ['VK_SUCCESS'] else 'res >= 0'
    return out + ['    VkResult res = %s;' % call,
                  '    if (%s) {' % ok,
                  '        %s' % track,
                  '    }',
                  '    return res;',
                  '}']


HEADER_TOP = """/* Generated by layer/lyr_vk_gen.py from the Vulkan registry; do not edit. */
#ifndef OVERSHADE_LYR_VK_GEN_H
#define OVERSHADE_LYR_VK_GEN_H

#include <stdint.h>
#include <string.h>

#include <vulkan/vulkan.h>

#include "capture/capture.h"

/* The next layer's device-level commands, every one the headers declare. */"""

# A generated lookup: the hook of `name` in sorted table `table`, or NULL.
LOOKUP = """PFN_vkVoidFunction
{function}(const char *name)
{{
    const struct passthrough *p = bsearch(name, {table}, sizeof({table}) / sizeof({table}[0]),
                                          sizeof({table}[0]), passthrough_cmp);
    return p ? p->fn : NULL;
}}
"""


def pointee(decl):
    """The structure a 'const VkFoo* pName' declaration points to."""
    return re.search(r'(Vk\w+)\s*\*', decl).group(1)


def transfer_hook(reg, v1, commands):
    """The C definition of the hook of version 1 transfer command v1."""
    v2 = v1 + '2'
    ret1, decls1, params1, _ = commands[v1]
    _, decls2, params2, _ = commands[v2]
    info = pointee(decls2[1])
    region1 = pointee(decls1[params1.index('pRegions')])
    fields = []
    for member, _, values in struct_members(reg, info):
        if member == 'sType':
            fields.append('            .sType = %s,' % values)
        elif member == 'pRegions':
            fields.append('            .pRegions = regions,')
        elif member != 'pNext':
            if member not in params1:
                sys.exit('%s: %s has no parameter %s' % (v1, info, member))
            fields.append('            .%s = %s,' % (member, member))
    out = ['static VKAPI_ATTR void VKAPI_CALL',
           'lyr_%s(%s)' % (v1[2:], ', '.join(decls1)),
            '{',
            '    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(%s));' % params1[0],
            '    struct lyr_cmdbuf *c = lyr_cmdbuf_recording(dev, %s);' % params1[0],
            '    %s2 *regions = c ? calloc((size_t)regionCount + 1, sizeof(*regions)) : NULL;'
            % region1,
            '    if (regions) {',
            '        for (uint32_t i = 0; i < regionCount; i++) {',
            '            regions[i] = lyr_promote_%s(&pRegions[i]);' % region1,
            '        }',
            '        %s info = {' % info] + fields + [
            '        };',
            '        lyr_record_%s(c, &info);' % v2[2:],
            '        free(regions);',
            '    } else if (c) {',
            '        c->stream.failed = 1;',
            '    }',
            '    dev->vk.%s(%s);' % (v1[2:], ', '.join(params1)),
            '}', '']
    if ret1 != 'void' or 'regionCount' not in params1 or region1 + '2' != pointee(
            [m[1] for m in struct_members(reg, info) if m[0] == 'pRegions'][0]):
        sys.exit('%s: not a transfer command with regions' % v1)
    return out


def main():
    xml_path, capture_h, out_h, out_c = sys.argv[1:5]
    reg = ET.parse(xml_path).getroot()
    with open(capture_h, encoding='utf-8') as f:
        header = f.read()

    protect = {p.get('name'): p.get('protect') for p in reg.find('platforms')}

    commands = {}  # name -> (return type, [param decls], [param names], first type)
    success = {}   # name -> [success codes]
    aliases = {}   # alias name -> target name
    for cmd in reg.find('commands'):
        if not api_ok(cmd):
            continue
        if cmd.get('alias'):
            aliases[cmd.get('name')] = cmd.get('alias')
            continue
        proto = cmd.find('proto')
        name = proto.find('name').text
        ret = proto.find('type').text
        params = [p for p in cmd.findall('param') if api_ok(p)]
        commands[name] = (ret, [param_decl(p) for p in params],
                          [p.find('name').text for p in params],
                          params[0].find('type').text if params else '')
        success[name] = (cmd.get('successcodes') or '').split(',')

    # Command name -> guard macro (None: always declared).  A command named
    # by a core version or by any non-platform extension is unguarded.
    guard = {}

    def require(name, macro):
        if name in guard and guard[name] is None:
            return
        guard[name] = macro

    for feat in reg.findall('feature'):
        if not api_ok(feat):
            continue
        for req in feat.findall('require'):
            if not api_ok(req):
                continue
            for c in req.findall('command'):
                require(c.get('name'), None)
    for ext in reg.find('extensions'):
        if 'vulkan' not in (ext.get('supported') or '').split(','):
            continue
        macro = protect.get(ext.get('platform')) if ext.get('platform') else None
        for req in ext.findall('require'):
            if not api_ok(req):
                continue
            for c in req.findall('command'):
                require(c.get('name'), macro)

    def resolve(name):
        seen = set()
        while name in aliases and name not in seen:
            seen.add(name)
            name = aliases[name]
        return name

    device = []
    for name in sorted(guard):
        target = resolve(name)
        if target not in commands:
            continue
        if commands[target][3] not in DEVICE_HANDLES:
            continue
        device.append((name, target, guard[name]))
    cmds = [d for d in device if d[0].startswith('vkCmd')]
    dyn_states = {e.get('name') for e in reg.iter('enum') if e.get('extends') == 'VkDynamicState'}
    for enums in reg.findall('enums'):
        if enums.get('name') == 'VkDynamicState':
            dyn_states |= {e.get('name') for e in enums.findall('enum')}
    state_cmds = []
    for w in WORD_STATES + ARRAY_STATES:
        base = 'vkCmdSet' + w
        for name, target, _ in device:
            if resolve(name) == resolve(base):
                state_cmds.append((name, target, base, w in ARRAY_STATES))
        if dynamic_state(base) not in dyn_states:
            sys.exit('%s: no dynamic state %s' % (base, dynamic_state(base)))
    state_cmds.sort()
    names_of = {}  # command -> itself and its aliases the headers declare
    for name, target, _ in device:
        names_of.setdefault(target, []).append(name)
    for name, _, _ in cmds:
        if len(name) > NAME_MAX:
            sys.exit('%s: longer than CAP_CMD_UNSUPPORTED holds' % name)
    recorded = RECORDED + [n for v1 in TRANSFERS for n in names_of[v1 + '2']]
    for name in recorded + TRACKED:
        if guard.get(name, 'missing') is not None:
            sys.exit('%s: not a command every build of the headers declares' % name)
    # The hand-written functions the generated hooks call, once per target.
    recorders = sorted({resolve(n) for n in recorded})
    trackers = sorted({resolve(n) for n in TRACKED})

    def guarded(lines, macro, body):
        if macro:
            lines.append('#ifdef %s' % macro)
        lines.extend(body)
        if macro:
            lines.append('#endif')

    h = HEADER_TOP.split('\n')
    h.append('struct lyr_device_vk {')
    for name, _, macro in device:
        guarded(h, macro, ['    PFN_%s %s;' % (name, name[2:])])
    h.append('};')
    h.append('')
    h.append('/* Fills *vk from gdpa(device, name); commands the device lacks stay NULL. */')
    h.append('void')
    h.append('lyr_device_vk_load(struct lyr_device_vk *vk, PFN_vkGetDeviceProcAddr gdpa, '
             'VkDevice device);')
    h.append('')
    h.append('/* The generated pass-through hook of vkCmd* command `name` (it records the')
    h.append(' * command as unsupported, by name, and forwards), or NULL when `name` is not')
    h.append(' * a command buffer command of the headers. */')
    h.append('PFN_vkVoidFunction')
    h.append('lyr_cmd_passthrough_hook(const char *name);')
    h.append('')
    h.append('/* The generated hook of `name`: a dynamic state command (it records the')
    h.append(' * values as words of its dynamic state), a command recorded by lyr_record_*')
    h.append(' * (transfer commands of either version among them) or a command whose')
    h.append(' * objects lyr_track_* shadows; NULL for any other name. */')
    h.append('PFN_vkVoidFunction')
    h.append('lyr_vk_gen_hook(const char *name);')
    h.append('')
    h.append('struct lyr_cmdbuf;')
    h.append('struct lyr_device;')
    h.append('')
    h.append('/* Record a command in a recording command buffer\'s shadow: the command\'s')
    h.append(' * arguments after the command buffer.  Hand-written in lyr_commands.c,')
    h.append(' * called by the generated hooks of the command and its aliases. */')
    for target in recorders:
        h.append('void')
        h.append('lyr_record_%s(%s);'
                 % (target[2:], ', '.join(['struct lyr_cmdbuf *c'] + commands[target][1][1:])))
    h.append('')
    h.append('/* Shadow what a device command creates, destroys or updates: the')
    h.append(' * command\'s arguments after the device, pAllocator left out; after a')
    h.append(' * successful call for vkCreate* and vkAllocate*, before the call for the')
    h.append(' * others.  Hand-written in lyr_objects.c and lyr_commands.c. */')
    for target in trackers:
        h.append('void')
        h.append('lyr_track_%s(struct lyr_device *dev, %s);'
                 % (target[2:], ', '.join(tracked_params(commands[target])[0])))
    h.append('')
    h.append('/* Fill a trace record from its create info: the members named as the')
    h.append(' * create info\'s (see layer/lyr_vk_gen.py); the others are left as they are.')
    h.append(' * Inline, as the promotions below. */')
    for pair in COPIES:
        h.extend(fill_function(reg, header, *pair.split(':')))
        h.append('')
    for info, members in PIPELINE_STATES.items():
        h.extend(pipeline_state_function(reg, header, info, members)[1])
        h.append('')
    h.append('')
    h.append('/* Version 1 structures as their version 2: sType set, pNext NULL, the')
    h.append(' * members both versions declare alike copied, any other member zero.')
    h.append(' * Inline: the files that use them call nothing of this file\'s. */')
    for v1 in PROMOTED:
        h.extend(promote_function(reg, v1))
        h.append('')
    h.append('/* Names of the vkCmd* commands the headers declare, sorted (for tests). */')
    h.append('extern const char *const lyr_cmd_names[];')
    h.append('extern const uint32_t lyr_cmd_name_count;')
    h.append('')
    h.append('#endif /* OVERSHADE_LYR_VK_GEN_H */')

    c = []
    c.append('/* Generated by layer/lyr_vk_gen.py from the Vulkan registry; do not edit. */')
    c.append('#include <stdlib.h>')
    c.append('#include <string.h>')
    c.append('')
    c.append('#include "layer/layer_private.h"')
    c.append('')
    c.append('void')
    c.append('lyr_device_vk_load(struct lyr_device_vk *vk, PFN_vkGetDeviceProcAddr gdpa, '
             'VkDevice device)')
    c.append('{')
    for name, _, macro in device:
        guarded(c, macro, ['    vk->%s = (PFN_%s)gdpa(device, "%s");' % (name[2:], name, name)])
    c.append('}')
    c.append('')
    for name, target, macro in cmds:
        ret, decls, names, _ = commands[target]
        body = []
        body.append('static VKAPI_ATTR %s VKAPI_CALL' % ret)
        body.append('lyr_gen_%s(%s)' % (name[2:], ', '.join(decls)))
        body.append('{')
        body.append('    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(%s));'
                    % names[0])
        body.append('    lyr_cmd_unmodelled(dev, %s, "%s");' % (names[0], name))
        call = 'dev->vk.%s(%s)' % (name[2:], ', '.join(names))
        if ret == 'void':
            body.append('    if (dev->vk.%s) {' % name[2:])
            body.append('        %s;' % call)
            body.append('    }')
        else:
            body.append('    return dev->vk.%s ? %s : (%s)0;' % (name[2:], call, ret))
        body.append('}')
        guarded(c, macro, body)
        c.append('')
    c.extend(['struct passthrough {', '    const char *name;', '    PFN_vkVoidFunction fn;',
              '};', '', 'static const struct passthrough passthroughs[] = {'])
    for name, _, macro in cmds:
        guarded(c, macro, ['    {"%s", (PFN_vkVoidFunction)lyr_gen_%s},' % (name, name[2:])])
    c.append('};')
    c.append('')
    c.append('const char *const lyr_cmd_names[] = {')
    for name, _, macro in cmds:
        guarded(c, macro, ['    "%s",' % name])
    c.append('};')
    c.append('const uint32_t lyr_cmd_name_count = sizeof(lyr_cmd_names) / sizeof(lyr_cmd_names[0]);')
    c.append('')
    gen_hooks = [name for name, _, _, _ in state_cmds] + recorded + TRACKED + TRANSFERS
    for name, target, base, array in state_cmds:
        c.extend(state_hook(name, base, commands[target], array))
        c.append('')
    for name in recorded:
        c.extend(recorded_hook(name, resolve(name), commands[resolve(name)]))
        c.append('')
    for v1 in TRANSFERS:
        c.extend(transfer_hook(reg, v1, commands))
    for name in TRACKED:
        target = resolve(name)
        c.extend(tracked_hook(name, target, commands[target], success[target]))
        c.append('')
    for name, (record, parent) in RECORD_TRACKERS.items():
        c.extend(record_tracker(name, commands[name], record, parent))
        c.append('')
    if len(set(gen_hooks)) != len(gen_hooks):
        sys.exit('a command listed twice among the generated hooks')
    c.append('static const struct passthrough gen_hooks[] = {')
    for name in sorted(gen_hooks):
        c.append('    {"%s", (PFN_vkVoidFunction)lyr_%s},' % (name, name[2:]))
    c.append('};')
    c.append('')
    c.append('static int')
    c.append('passthrough_cmp(const void *key, const void *elem)')
    c.append('{')
    c.append('    return strcmp(key, ((const struct passthrough *)elem)->name);')
    c.append('}')
    c.append('')
    for function, table in (('lyr_cmd_passthrough_hook', 'passthroughs'),
                            ('lyr_vk_gen_hook', 'gen_hooks')):
        c.extend(LOOKUP.format(function=function, table=table).split('\n'))

    for path, lines in ((out_h, h), (out_c, c)):
        with open(path, 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
