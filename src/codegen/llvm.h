/* LLVM's C API as the code generator calls it. Built with a shared
 * libLLVM (DLI_LLVM_SONAME), the library does not link it: a process
 * loads it at its first compile (dli_llvm_load), so that a program that
 * never compiles a type never pays for loading LLVM (tens of
 * milliseconds and hundreds of megabytes mapped per process); every
 * LLVM function the code generator calls is then a pointer of the table
 * below, under LLVM's own name. With a static LLVM the calls are LLVM's,
 * linked in. */
#ifndef DLI_CODEGEN_LLVM_H
#define DLI_CODEGEN_LLVM_H

#include <config.h>   /* DLI_LLVM_SONAME, from configure */
#include <stdbool.h>
#include <llvm/Config/llvm-config.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include "../../dataloop/loop.h"   /* DLI_HIDDEN */

/* LLVM loaded (once; false if it cannot be) and its native target and
   assembly printer initialized */
DLI_HIDDEN bool dli_llvm_load(void);

#ifdef DLI_LLVM_SONAME
#define DLI_LLVM_FUNCTIONS(X) \
  X(LLVMAddAttributeAtIndex) \
  X(LLVMAddFunction) \
  X(LLVMAddGlobal) \
  X(LLVMAddIncoming) \
  X(LLVMAppendBasicBlockInContext) \
  X(LLVMArrayType) \
  X(LLVMBuildAdd) \
  X(LLVMBuildAnd) \
  X(LLVMBuildBitCast) \
  X(LLVMBuildBr) \
  X(LLVMBuildCall2) \
  X(LLVMBuildCondBr) \
  X(LLVMBuildGEP2) \
  X(LLVMBuildICmp) \
  X(LLVMBuildLoad2) \
  X(LLVMBuildMemCpy) \
  X(LLVMBuildMul) \
  X(LLVMBuildPhi) \
  X(LLVMBuildPtrToInt) \
  X(LLVMBuildRetVoid) \
  X(LLVMBuildSExt) \
  X(LLVMBuildSelect) \
  X(LLVMBuildStore) \
  X(LLVMBuildSub) \
  X(LLVMBuildUDiv) \
  X(LLVMConstArray) \
  X(LLVMConstInt) \
  X(LLVMContextCreate) \
  X(LLVMContextDispose) \
  X(LLVMCreateBuilderInContext) \
  X(LLVMCreateEnumAttribute) \
  X(LLVMCreateMemoryBufferWithMemoryRangeCopy) \
  X(LLVMCreateTargetDataLayout) \
  X(LLVMCreateTargetMachine) \
  X(LLVMDeleteFunction) \
  X(LLVMDisposeBuilder) \
  X(LLVMDisposeMemoryBuffer) \
  X(LLVMDisposeErrorMessage) \
  X(LLVMDisposeMessage) \
  X(LLVMDisposeModule) \
  X(LLVMFunctionType) \
  X(LLVMGetBasicBlockName) \
  X(LLVMGetBufferSize) \
  X(LLVMGetBufferStart) \
  X(LLVMGetDefaultTargetTriple) \
  X(LLVMGetElementType) \
  X(LLVMGetEnumAttributeKindForName) \
  X(LLVMGetErrorMessage) \
  X(LLVMGetFirstBasicBlock) \
  X(LLVMGetGlobalParent) \
  X(LLVMGetHostCPUFeatures) \
  X(LLVMGetHostCPUName) \
  X(LLVMGetInsertBlock) \
  X(LLVMGetModuleContext) \
  X(LLVMGetNextBasicBlock) \
  X(LLVMGetParam) \
  X(LLVMGetTargetFromTriple) \
  X(LLVMGlobalGetValueType) \
  X(LLVMInt16TypeInContext) \
  X(LLVMInt32TypeInContext) \
  X(LLVMInt64TypeInContext) \
  X(LLVMInt8TypeInContext) \
  X(LLVMModuleCreateWithNameInContext) \
  X(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess) \
  X(LLVMOrcCreateLLJIT) \
  X(LLVMOrcCreateLLJITBuilder) \
  X(LLVMOrcJITDylibAddGenerator) \
  X(LLVMOrcDisposeLLJIT) \
  X(LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine) \
  X(LLVMOrcLLJITAddObjectFile) \
  X(LLVMOrcLLJITBuilderSetJITTargetMachineBuilder) \
  X(LLVMOrcLLJITGetGlobalPrefix) \
  X(LLVMOrcLLJITGetMainJITDylib) \
  X(LLVMOrcLLJITLookup) \
  X(LLVMPointerType) \
  X(LLVMPositionBuilderAtEnd) \
  X(LLVMPrintModuleToString) \
  X(LLVMSetAlignment) \
  X(LLVMSetGlobalConstant) \
  X(LLVMSetInitializer) \
  X(LLVMSetLinkage) \
  X(LLVMSetModuleDataLayout) \
  X(LLVMSetTarget) \
  X(LLVMTargetMachineEmitToMemoryBuffer) \
  X(LLVMTypeOf) \
  X(LLVMVectorType) \
  X(LLVMVerifyModule) \
  X(LLVMVoidTypeInContext)

typedef struct dli_llvm_api {
#define DLI_LLVM_MEMBER(f) __typeof__(f) *f;
  DLI_LLVM_FUNCTIONS(DLI_LLVM_MEMBER)
#undef DLI_LLVM_MEMBER
} dli_llvm_api;
DLI_HIDDEN extern dli_llvm_api dli_llvm;

#ifndef DLI_LLVM_NO_RENAME
#define LLVMAddAttributeAtIndex (dli_llvm.LLVMAddAttributeAtIndex)
#define LLVMAddFunction (dli_llvm.LLVMAddFunction)
#define LLVMAddGlobal (dli_llvm.LLVMAddGlobal)
#define LLVMAddIncoming (dli_llvm.LLVMAddIncoming)
#define LLVMAppendBasicBlockInContext (dli_llvm.LLVMAppendBasicBlockInContext)
#define LLVMArrayType (dli_llvm.LLVMArrayType)
#define LLVMBuildAdd (dli_llvm.LLVMBuildAdd)
#define LLVMBuildAnd (dli_llvm.LLVMBuildAnd)
#define LLVMBuildBitCast (dli_llvm.LLVMBuildBitCast)
#define LLVMBuildBr (dli_llvm.LLVMBuildBr)
#define LLVMBuildCall2 (dli_llvm.LLVMBuildCall2)
#define LLVMBuildCondBr (dli_llvm.LLVMBuildCondBr)
#define LLVMBuildGEP2 (dli_llvm.LLVMBuildGEP2)
#define LLVMBuildICmp (dli_llvm.LLVMBuildICmp)
#define LLVMBuildLoad2 (dli_llvm.LLVMBuildLoad2)
#define LLVMBuildMemCpy (dli_llvm.LLVMBuildMemCpy)
#define LLVMBuildMul (dli_llvm.LLVMBuildMul)
#define LLVMBuildPhi (dli_llvm.LLVMBuildPhi)
#define LLVMBuildPtrToInt (dli_llvm.LLVMBuildPtrToInt)
#define LLVMBuildRetVoid (dli_llvm.LLVMBuildRetVoid)
#define LLVMBuildSExt (dli_llvm.LLVMBuildSExt)
#define LLVMBuildSelect (dli_llvm.LLVMBuildSelect)
#define LLVMBuildStore (dli_llvm.LLVMBuildStore)
#define LLVMBuildSub (dli_llvm.LLVMBuildSub)
#define LLVMBuildUDiv (dli_llvm.LLVMBuildUDiv)
#define LLVMConstArray (dli_llvm.LLVMConstArray)
#define LLVMConstInt (dli_llvm.LLVMConstInt)
#define LLVMContextCreate (dli_llvm.LLVMContextCreate)
#define LLVMContextDispose (dli_llvm.LLVMContextDispose)
#define LLVMCreateBuilderInContext (dli_llvm.LLVMCreateBuilderInContext)
#define LLVMCreateEnumAttribute (dli_llvm.LLVMCreateEnumAttribute)
#define LLVMCreateMemoryBufferWithMemoryRangeCopy (dli_llvm.LLVMCreateMemoryBufferWithMemoryRangeCopy)
#define LLVMCreateTargetDataLayout (dli_llvm.LLVMCreateTargetDataLayout)
#define LLVMCreateTargetMachine (dli_llvm.LLVMCreateTargetMachine)
#define LLVMDeleteFunction (dli_llvm.LLVMDeleteFunction)
#define LLVMDisposeBuilder (dli_llvm.LLVMDisposeBuilder)
#define LLVMDisposeMemoryBuffer (dli_llvm.LLVMDisposeMemoryBuffer)
#define LLVMDisposeErrorMessage (dli_llvm.LLVMDisposeErrorMessage)
#define LLVMDisposeMessage (dli_llvm.LLVMDisposeMessage)
#define LLVMDisposeModule (dli_llvm.LLVMDisposeModule)
#define LLVMFunctionType (dli_llvm.LLVMFunctionType)
#define LLVMGetBasicBlockName (dli_llvm.LLVMGetBasicBlockName)
#define LLVMGetBufferSize (dli_llvm.LLVMGetBufferSize)
#define LLVMGetBufferStart (dli_llvm.LLVMGetBufferStart)
#define LLVMGetDefaultTargetTriple (dli_llvm.LLVMGetDefaultTargetTriple)
#define LLVMGetElementType (dli_llvm.LLVMGetElementType)
#define LLVMGetEnumAttributeKindForName (dli_llvm.LLVMGetEnumAttributeKindForName)
#define LLVMGetErrorMessage (dli_llvm.LLVMGetErrorMessage)
#define LLVMGetFirstBasicBlock (dli_llvm.LLVMGetFirstBasicBlock)
#define LLVMGetGlobalParent (dli_llvm.LLVMGetGlobalParent)
#define LLVMGetHostCPUFeatures (dli_llvm.LLVMGetHostCPUFeatures)
#define LLVMGetHostCPUName (dli_llvm.LLVMGetHostCPUName)
#define LLVMGetInsertBlock (dli_llvm.LLVMGetInsertBlock)
#define LLVMGetModuleContext (dli_llvm.LLVMGetModuleContext)
#define LLVMGetNextBasicBlock (dli_llvm.LLVMGetNextBasicBlock)
#define LLVMGetParam (dli_llvm.LLVMGetParam)
#define LLVMGetTargetFromTriple (dli_llvm.LLVMGetTargetFromTriple)
#define LLVMGlobalGetValueType (dli_llvm.LLVMGlobalGetValueType)
#define LLVMInt16TypeInContext (dli_llvm.LLVMInt16TypeInContext)
#define LLVMInt32TypeInContext (dli_llvm.LLVMInt32TypeInContext)
#define LLVMInt64TypeInContext (dli_llvm.LLVMInt64TypeInContext)
#define LLVMInt8TypeInContext (dli_llvm.LLVMInt8TypeInContext)
#define LLVMModuleCreateWithNameInContext (dli_llvm.LLVMModuleCreateWithNameInContext)
#define LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess (dli_llvm.LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess)
#define LLVMOrcCreateLLJIT (dli_llvm.LLVMOrcCreateLLJIT)
#define LLVMOrcCreateLLJITBuilder (dli_llvm.LLVMOrcCreateLLJITBuilder)
#define LLVMOrcJITDylibAddGenerator (dli_llvm.LLVMOrcJITDylibAddGenerator)
#define LLVMOrcDisposeLLJIT (dli_llvm.LLVMOrcDisposeLLJIT)
#define LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine (dli_llvm.LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine)
#define LLVMOrcLLJITAddObjectFile (dli_llvm.LLVMOrcLLJITAddObjectFile)
#define LLVMOrcLLJITBuilderSetJITTargetMachineBuilder (dli_llvm.LLVMOrcLLJITBuilderSetJITTargetMachineBuilder)
#define LLVMOrcLLJITGetGlobalPrefix (dli_llvm.LLVMOrcLLJITGetGlobalPrefix)
#define LLVMOrcLLJITGetMainJITDylib (dli_llvm.LLVMOrcLLJITGetMainJITDylib)
#define LLVMOrcLLJITLookup (dli_llvm.LLVMOrcLLJITLookup)
#define LLVMPointerType (dli_llvm.LLVMPointerType)
#define LLVMPositionBuilderAtEnd (dli_llvm.LLVMPositionBuilderAtEnd)
#define LLVMPrintModuleToString (dli_llvm.LLVMPrintModuleToString)
#define LLVMSetAlignment (dli_llvm.LLVMSetAlignment)
#define LLVMSetGlobalConstant (dli_llvm.LLVMSetGlobalConstant)
#define LLVMSetInitializer (dli_llvm.LLVMSetInitializer)
#define LLVMSetLinkage (dli_llvm.LLVMSetLinkage)
#define LLVMSetModuleDataLayout (dli_llvm.LLVMSetModuleDataLayout)
#define LLVMSetTarget (dli_llvm.LLVMSetTarget)
#define LLVMTargetMachineEmitToMemoryBuffer (dli_llvm.LLVMTargetMachineEmitToMemoryBuffer)
#define LLVMTypeOf (dli_llvm.LLVMTypeOf)
#define LLVMVectorType (dli_llvm.LLVMVectorType)
#define LLVMVerifyModule (dli_llvm.LLVMVerifyModule)
#define LLVMVoidTypeInContext (dli_llvm.LLVMVoidTypeInContext)
#endif
#endif

#endif
