; ModuleID = 'dataloop'
source_filename = "dataloop"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @dl_748c2fab580803ea(i8* noalias %0, i8* noalias %1, i64 %2, i64 %3) {
entry:
  %4 = icmp slt i64 %2, %3
  br i1 %4, label %loop, label %done

loop:                                             ; preds = %latch, %entry
  %i = phi i64 [ %2, %entry ], [ %8, %latch ]
  %out = phi i8* [ %1, %entry ], [ %7, %latch ]
  %5 = mul i64 %i, 8
  %6 = getelementptr i8, i8* %0, i64 %5
  call void @dl_1d7397f400f973a4(i8* %6, i8* %out, i64 0, i64 80)
  %7 = getelementptr i8, i8* %out, i64 327680
  %8 = add i64 %i, 1
  %9 = icmp slt i64 %8, %3
  br i1 %9, label %latch, label %done

done:                                             ; preds = %loop, %entry
  %10 = phi i8* [ %1, %entry ], [ %7, %loop ]
  ret void

latch:                                            ; preds = %loop
  br label %loop
}

define void @dl_1486dbb3ae3dc07b(i8* noalias %0, i8* noalias %1, i64 %2, i64 %3) {
entry:
  %4 = icmp eq i64 %3, 24
  %5 = icmp eq i64 %2, 0
  %6 = and i1 %5, %4
  br i1 %6, label %full, label %part

full:                                             ; preds = %entry
  br i1 true, label %loop, label %done

part:                                             ; preds = %entry
  %7 = icmp slt i64 %2, %3
  br i1 %7, label %loop16, label %done17

loop:                                             ; preds = %latch15, %full
  %i = phi i64 [ 0, %full ], [ %14, %latch15 ]
  %out = phi i8* [ %1, %full ], [ %13, %latch15 ]
  %8 = mul i64 %i, 786432
  %9 = getelementptr i8, i8* %0, i64 %8
  br i1 true, label %loop1, label %done2

done:                                             ; preds = %done2, %full
  %10 = phi i8* [ %1, %full ], [ %13, %done2 ]
  ret void

loop1:                                            ; preds = %latch14, %loop
  %i3 = phi i64 [ 0, %loop ], [ %19, %latch14 ]
  %out4 = phi i8* [ %out, %loop ], [ %18, %latch14 ]
  %11 = mul i64 %i3, 49152
  %12 = getelementptr i8, i8* %9, i64 %11
  br i1 true, label %loop5, label %done6

done2:                                            ; preds = %done6, %loop
  %13 = phi i8* [ %out, %loop ], [ %18, %done6 ]
  %14 = add i64 %i, 1
  %15 = icmp slt i64 %14, 80
  br i1 %15, label %latch15, label %done

loop5:                                            ; preds = %latch13, %loop1
  %i7 = phi i64 [ 0, %loop1 ], [ %145, %latch13 ]
  %out8 = phi i8* [ %out4, %loop1 ], [ %144, %latch13 ]
  %16 = mul i64 %i7, 3072
  %17 = getelementptr i8, i8* %12, i64 %16
  br i1 true, label %loop9, label %done10

done6:                                            ; preds = %done10, %loop1
  %18 = phi i8* [ %out4, %loop1 ], [ %144, %done10 ]
  %19 = add i64 %i3, 1
  %20 = icmp slt i64 %19, 8
  br i1 %20, label %latch14, label %done2

loop9:                                            ; preds = %latch, %loop5
  %i11 = phi i64 [ 0, %loop5 ], [ %142, %latch ]
  %out12 = phi i8* [ %out8, %loop5 ], [ %141, %latch ]
  %21 = mul i64 %i11, 192
  %22 = getelementptr i8, i8* %17, i64 %21
  %23 = bitcast i8* %out12 to i64*
  %24 = load i64, i64* %23, align 1
  %25 = bitcast i8* %22 to i64*
  store i64 %24, i64* %25, align 1
  %26 = getelementptr i8, i8* %out12, i64 327680
  %27 = getelementptr i8, i8* %22, i64 8
  %28 = bitcast i8* %26 to i64*
  %29 = load i64, i64* %28, align 1
  %30 = bitcast i8* %27 to i64*
  store i64 %29, i64* %30, align 1
  %31 = getelementptr i8, i8* %out12, i64 655360
  %32 = getelementptr i8, i8* %22, i64 16
  %33 = bitcast i8* %31 to i64*
  %34 = load i64, i64* %33, align 1
  %35 = bitcast i8* %32 to i64*
  store i64 %34, i64* %35, align 1
  %36 = getelementptr i8, i8* %out12, i64 983040
  %37 = getelementptr i8, i8* %22, i64 24
  %38 = bitcast i8* %36 to i64*
  %39 = load i64, i64* %38, align 1
  %40 = bitcast i8* %37 to i64*
  store i64 %39, i64* %40, align 1
  %41 = getelementptr i8, i8* %out12, i64 1310720
  %42 = getelementptr i8, i8* %22, i64 32
  %43 = bitcast i8* %41 to i64*
  %44 = load i64, i64* %43, align 1
  %45 = bitcast i8* %42 to i64*
  store i64 %44, i64* %45, align 1
  %46 = getelementptr i8, i8* %out12, i64 1638400
  %47 = getelementptr i8, i8* %22, i64 40
  %48 = bitcast i8* %46 to i64*
  %49 = load i64, i64* %48, align 1
  %50 = bitcast i8* %47 to i64*
  store i64 %49, i64* %50, align 1
  %51 = getelementptr i8, i8* %out12, i64 1966080
  %52 = getelementptr i8, i8* %22, i64 48
  %53 = bitcast i8* %51 to i64*
  %54 = load i64, i64* %53, align 1
  %55 = bitcast i8* %52 to i64*
  store i64 %54, i64* %55, align 1
  %56 = getelementptr i8, i8* %out12, i64 2293760
  %57 = getelementptr i8, i8* %22, i64 56
  %58 = bitcast i8* %56 to i64*
  %59 = load i64, i64* %58, align 1
  %60 = bitcast i8* %57 to i64*
  store i64 %59, i64* %60, align 1
  %61 = getelementptr i8, i8* %out12, i64 2621440
  %62 = getelementptr i8, i8* %22, i64 64
  %63 = bitcast i8* %61 to i64*
  %64 = load i64, i64* %63, align 1
  %65 = bitcast i8* %62 to i64*
  store i64 %64, i64* %65, align 1
  %66 = getelementptr i8, i8* %out12, i64 2949120
  %67 = getelementptr i8, i8* %22, i64 72
  %68 = bitcast i8* %66 to i64*
  %69 = load i64, i64* %68, align 1
  %70 = bitcast i8* %67 to i64*
  store i64 %69, i64* %70, align 1
  %71 = getelementptr i8, i8* %out12, i64 3276800
  %72 = getelementptr i8, i8* %22, i64 80
  %73 = bitcast i8* %71 to i64*
  %74 = load i64, i64* %73, align 1
  %75 = bitcast i8* %72 to i64*
  store i64 %74, i64* %75, align 1
  %76 = getelementptr i8, i8* %out12, i64 3604480
  %77 = getelementptr i8, i8* %22, i64 88
  %78 = bitcast i8* %76 to i64*
  %79 = load i64, i64* %78, align 1
  %80 = bitcast i8* %77 to i64*
  store i64 %79, i64* %80, align 1
  %81 = getelementptr i8, i8* %out12, i64 3932160
  %82 = getelementptr i8, i8* %22, i64 96
  %83 = bitcast i8* %81 to i64*
  %84 = load i64, i64* %83, align 1
  %85 = bitcast i8* %82 to i64*
  store i64 %84, i64* %85, align 1
  %86 = getelementptr i8, i8* %out12, i64 4259840
  %87 = getelementptr i8, i8* %22, i64 104
  %88 = bitcast i8* %86 to i64*
  %89 = load i64, i64* %88, align 1
  %90 = bitcast i8* %87 to i64*
  store i64 %89, i64* %90, align 1
  %91 = getelementptr i8, i8* %out12, i64 4587520
  %92 = getelementptr i8, i8* %22, i64 112
  %93 = bitcast i8* %91 to i64*
  %94 = load i64, i64* %93, align 1
  %95 = bitcast i8* %92 to i64*
  store i64 %94, i64* %95, align 1
  %96 = getelementptr i8, i8* %out12, i64 4915200
  %97 = getelementptr i8, i8* %22, i64 120
  %98 = bitcast i8* %96 to i64*
  %99 = load i64, i64* %98, align 1
  %100 = bitcast i8* %97 to i64*
  store i64 %99, i64* %100, align 1
  %101 = getelementptr i8, i8* %out12, i64 5242880
  %102 = getelementptr i8, i8* %22, i64 128
  %103 = bitcast i8* %101 to i64*
  %104 = load i64, i64* %103, align 1
  %105 = bitcast i8* %102 to i64*
  store i64 %104, i64* %105, align 1
  %106 = getelementptr i8, i8* %out12, i64 5570560
  %107 = getelementptr i8, i8* %22, i64 136
  %108 = bitcast i8* %106 to i64*
  %109 = load i64, i64* %108, align 1
  %110 = bitcast i8* %107 to i64*
  store i64 %109, i64* %110, align 1
  %111 = getelementptr i8, i8* %out12, i64 5898240
  %112 = getelementptr i8, i8* %22, i64 144
  %113 = bitcast i8* %111 to i64*
  %114 = load i64, i64* %113, align 1
  %115 = bitcast i8* %112 to i64*
  store i64 %114, i64* %115, align 1
  %116 = getelementptr i8, i8* %out12, i64 6225920
  %117 = getelementptr i8, i8* %22, i64 152
  %118 = bitcast i8* %116 to i64*
  %119 = load i64, i64* %118, align 1
  %120 = bitcast i8* %117 to i64*
  store i64 %119, i64* %120, align 1
  %121 = getelementptr i8, i8* %out12, i64 6553600
  %122 = getelementptr i8, i8* %22, i64 160
  %123 = bitcast i8* %121 to i64*
  %124 = load i64, i64* %123, align 1
  %125 = bitcast i8* %122 to i64*
  store i64 %124, i64* %125, align 1
  %126 = getelementptr i8, i8* %out12, i64 6881280
  %127 = getelementptr i8, i8* %22, i64 168
  %128 = bitcast i8* %126 to i64*
  %129 = load i64, i64* %128, align 1
  %130 = bitcast i8* %127 to i64*
  store i64 %129, i64* %130, align 1
  %131 = getelementptr i8, i8* %out12, i64 7208960
  %132 = getelementptr i8, i8* %22, i64 176
  %133 = bitcast i8* %131 to i64*
  %134 = load i64, i64* %133, align 1
  %135 = bitcast i8* %132 to i64*
  store i64 %134, i64* %135, align 1
  %136 = getelementptr i8, i8* %out12, i64 7536640
  %137 = getelementptr i8, i8* %22, i64 184
  %138 = bitcast i8* %136 to i64*
  %139 = load i64, i64* %138, align 1
  %140 = bitcast i8* %137 to i64*
  store i64 %139, i64* %140, align 1
  %141 = getelementptr i8, i8* %out12, i64 8
  %142 = add i64 %i11, 1
  %143 = icmp slt i64 %142, 8
  br i1 %143, label %latch, label %done10

done10:                                           ; preds = %loop9, %loop5
  %144 = phi i8* [ %out8, %loop5 ], [ %141, %loop9 ]
  %145 = add i64 %i7, 1
  %146 = icmp slt i64 %145, 8
  br i1 %146, label %latch13, label %done6

latch:                                            ; preds = %loop9
  br label %loop9

latch13:                                          ; preds = %done10
  br label %loop5

latch14:                                          ; preds = %done6
  br label %loop1

latch15:                                          ; preds = %done2
  br label %loop

loop16:                                           ; preds = %latch20, %part
  %i18 = phi i64 [ %2, %part ], [ %150, %latch20 ]
  %out19 = phi i8* [ %1, %part ], [ %149, %latch20 ]
  %147 = mul i64 %i18, 8
  %148 = getelementptr i8, i8* %0, i64 %147
  call void @dl_bd6e43fc572f3035(i8* %148, i8* %out19, i64 0, i64 80)
  %149 = getelementptr i8, i8* %out19, i64 327680
  %150 = add i64 %i18, 1
  %151 = icmp slt i64 %150, %3
  br i1 %151, label %latch20, label %done17

done17:                                           ; preds = %loop16, %part
  %152 = phi i8* [ %1, %part ], [ %149, %loop16 ]
  ret void

latch20:                                          ; preds = %loop16
  br label %loop16
}

define void @dl_1d7397f400f973a4(i8* noalias %0, i8* noalias %1, i64 %2, i64 %3) {
entry:
  %4 = icmp slt i64 %2, %3
  br i1 %4, label %loop, label %done

loop:                                             ; preds = %latch5, %entry
  %i = phi i64 [ %2, %entry ], [ %332, %latch5 ]
  %out = phi i8* [ %1, %entry ], [ %331, %latch5 ]
  %5 = mul i64 %i, 786432
  %6 = getelementptr i8, i8* %0, i64 %5
  br i1 true, label %loop1, label %done2

done:                                             ; preds = %done2, %entry
  %7 = phi i8* [ %1, %entry ], [ %331, %done2 ]
  ret void

loop1:                                            ; preds = %latch, %loop
  %i3 = phi i64 [ 0, %loop ], [ %329, %latch ]
  %out4 = phi i8* [ %out, %loop ], [ %328, %latch ]
  %8 = mul i64 %i3, 49152
  %9 = getelementptr i8, i8* %6, i64 %8
  %10 = bitcast i8* %9 to i64*
  %11 = load i64, i64* %10, align 1
  %12 = bitcast i8* %out4 to i64*
  store i64 %11, i64* %12, align 1
  %13 = getelementptr i8, i8* %out4, i64 8
  %14 = getelementptr i8, i8* %9, i64 192
  %15 = bitcast i8* %14 to i64*
  %16 = load i64, i64* %15, align 1
  %17 = bitcast i8* %13 to i64*
  store i64 %16, i64* %17, align 1
  %18 = getelementptr i8, i8* %13, i64 8
  %19 = getelementptr i8, i8* %9, i64 384
  %20 = bitcast i8* %19 to i64*
  %21 = load i64, i64* %20, align 1
  %22 = bitcast i8* %18 to i64*
  store i64 %21, i64* %22, align 1
  %23 = getelementptr i8, i8* %18, i64 8
  %24 = getelementptr i8, i8* %9, i64 576
  %25 = bitcast i8* %24 to i64*
  %26 = load i64, i64* %25, align 1
  %27 = bitcast i8* %23 to i64*
  store i64 %26, i64* %27, align 1
  %28 = getelementptr i8, i8* %23, i64 8
  %29 = getelementptr i8, i8* %9, i64 768
  %30 = bitcast i8* %29 to i64*
  %31 = load i64, i64* %30, align 1
  %32 = bitcast i8* %28 to i64*
  store i64 %31, i64* %32, align 1
  %33 = getelementptr i8, i8* %28, i64 8
  %34 = getelementptr i8, i8* %9, i64 960
  %35 = bitcast i8* %34 to i64*
  %36 = load i64, i64* %35, align 1
  %37 = bitcast i8* %33 to i64*
  store i64 %36, i64* %37, align 1
  %38 = getelementptr i8, i8* %33, i64 8
  %39 = getelementptr i8, i8* %9, i64 1152
  %40 = bitcast i8* %39 to i64*
  %41 = load i64, i64* %40, align 1
  %42 = bitcast i8* %38 to i64*
  store i64 %41, i64* %42, align 1
  %43 = getelementptr i8, i8* %38, i64 8
  %44 = getelementptr i8, i8* %9, i64 1344
  %45 = bitcast i8* %44 to i64*
  %46 = load i64, i64* %45, align 1
  %47 = bitcast i8* %43 to i64*
  store i64 %46, i64* %47, align 1
  %48 = getelementptr i8, i8* %43, i64 8
  %49 = getelementptr i8, i8* %9, i64 3072
  %50 = bitcast i8* %49 to i64*
  %51 = load i64, i64* %50, align 1
  %52 = bitcast i8* %48 to i64*
  store i64 %51, i64* %52, align 1
  %53 = getelementptr i8, i8* %48, i64 8
  %54 = getelementptr i8, i8* %49, i64 192
  %55 = bitcast i8* %54 to i64*
  %56 = load i64, i64* %55, align 1
  %57 = bitcast i8* %53 to i64*
  store i64 %56, i64* %57, align 1
  %58 = getelementptr i8, i8* %53, i64 8
  %59 = getelementptr i8, i8* %49, i64 384
  %60 = bitcast i8* %59 to i64*
  %61 = load i64, i64* %60, align 1
  %62 = bitcast i8* %58 to i64*
  store i64 %61, i64* %62, align 1
  %63 = getelementptr i8, i8* %58, i64 8
  %64 = getelementptr i8, i8* %49, i64 576
  %65 = bitcast i8* %64 to i64*
  %66 = load i64, i64* %65, align 1
  %67 = bitcast i8* %63 to i64*
  store i64 %66, i64* %67, align 1
  %68 = getelementptr i8, i8* %63, i64 8
  %69 = getelementptr i8, i8* %49, i64 768
  %70 = bitcast i8* %69 to i64*
  %71 = load i64, i64* %70, align 1
  %72 = bitcast i8* %68 to i64*
  store i64 %71, i64* %72, align 1
  %73 = getelementptr i8, i8* %68, i64 8
  %74 = getelementptr i8, i8* %49, i64 960
  %75 = bitcast i8* %74 to i64*
  %76 = load i64, i64* %75, align 1
  %77 = bitcast i8* %73 to i64*
  store i64 %76, i64* %77, align 1
  %78 = getelementptr i8, i8* %73, i64 8
  %79 = getelementptr i8, i8* %49, i64 1152
  %80 = bitcast i8* %79 to i64*
  %81 = load i64, i64* %80, align 1
  %82 = bitcast i8* %78 to i64*
  store i64 %81, i64* %82, align 1
  %83 = getelementptr i8, i8* %78, i64 8
  %84 = getelementptr i8, i8* %49, i64 1344
  %85 = bitcast i8* %84 to i64*
  %86 = load i64, i64* %85, align 1
  %87 = bitcast i8* %83 to i64*
  store i64 %86, i64* %87, align 1
  %88 = getelementptr i8, i8* %83, i64 8
  %89 = getelementptr i8, i8* %9, i64 6144
  %90 = bitcast i8* %89 to i64*
  %91 = load i64, i64* %90, align 1
  %92 = bitcast i8* %88 to i64*
  store i64 %91, i64* %92, align 1
  %93 = getelementptr i8, i8* %88, i64 8
  %94 = getelementptr i8, i8* %89, i64 192
  %95 = bitcast i8* %94 to i64*
  %96 = load i64, i64* %95, align 1
  %97 = bitcast i8* %93 to i64*
  store i64 %96, i64* %97, align 1
  %98 = getelementptr i8, i8* %93, i64 8
  %99 = getelementptr i8, i8* %89, i64 384
  %100 = bitcast i8* %99 to i64*
  %101 = load i64, i64* %100, align 1
  %102 = bitcast i8* %98 to i64*
  store i64 %101, i64* %102, align 1
  %103 = getelementptr i8, i8* %98, i64 8
  %104 = getelementptr i8, i8* %89, i64 576
  %105 = bitcast i8* %104 to i64*
  %106 = load i64, i64* %105, align 1
  %107 = bitcast i8* %103 to i64*
  store i64 %106, i64* %107, align 1
  %108 = getelementptr i8, i8* %103, i64 8
  %109 = getelementptr i8, i8* %89, i64 768
  %110 = bitcast i8* %109 to i64*
  %111 = load i64, i64* %110, align 1
  %112 = bitcast i8* %108 to i64*
  store i64 %111, i64* %112, align 1
  %113 = getelementptr i8, i8* %108, i64 8
  %114 = getelementptr i8, i8* %89, i64 960
  %115 = bitcast i8* %114 to i64*
  %116 = load i64, i64* %115, align 1
  %117 = bitcast i8* %113 to i64*
  store i64 %116, i64* %117, align 1
  %118 = getelementptr i8, i8* %113, i64 8
  %119 = getelementptr i8, i8* %89, i64 1152
  %120 = bitcast i8* %119 to i64*
  %121 = load i64, i64* %120, align 1
  %122 = bitcast i8* %118 to i64*
  store i64 %121, i64* %122, align 1
  %123 = getelementptr i8, i8* %118, i64 8
  %124 = getelementptr i8, i8* %89, i64 1344
  %125 = bitcast i8* %124 to i64*
  %126 = load i64, i64* %125, align 1
  %127 = bitcast i8* %123 to i64*
  store i64 %126, i64* %127, align 1
  %128 = getelementptr i8, i8* %123, i64 8
  %129 = getelementptr i8, i8* %9, i64 9216
  %130 = bitcast i8* %129 to i64*
  %131 = load i64, i64* %130, align 1
  %132 = bitcast i8* %128 to i64*
  store i64 %131, i64* %132, align 1
  %133 = getelementptr i8, i8* %128, i64 8
  %134 = getelementptr i8, i8* %129, i64 192
  %135 = bitcast i8* %134 to i64*
  %136 = load i64, i64* %135, align 1
  %137 = bitcast i8* %133 to i64*
  store i64 %136, i64* %137, align 1
  %138 = getelementptr i8, i8* %133, i64 8
  %139 = getelementptr i8, i8* %129, i64 384
  %140 = bitcast i8* %139 to i64*
  %141 = load i64, i64* %140, align 1
  %142 = bitcast i8* %138 to i64*
  store i64 %141, i64* %142, align 1
  %143 = getelementptr i8, i8* %138, i64 8
  %144 = getelementptr i8, i8* %129, i64 576
  %145 = bitcast i8* %144 to i64*
  %146 = load i64, i64* %145, align 1
  %147 = bitcast i8* %143 to i64*
  store i64 %146, i64* %147, align 1
  %148 = getelementptr i8, i8* %143, i64 8
  %149 = getelementptr i8, i8* %129, i64 768
  %150 = bitcast i8* %149 to i64*
  %151 = load i64, i64* %150, align 1
  %152 = bitcast i8* %148 to i64*
  store i64 %151, i64* %152, align 1
  %153 = getelementptr i8, i8* %148, i64 8
  %154 = getelementptr i8, i8* %129, i64 960
  %155 = bitcast i8* %154 to i64*
  %156 = load i64, i64* %155, align 1
  %157 = bitcast i8* %153 to i64*
  store i64 %156, i64* %157, align 1
  %158 = getelementptr i8, i8* %153, i64 8
  %159 = getelementptr i8, i8* %129, i64 1152
  %160 = bitcast i8* %159 to i64*
  %161 = load i64, i64* %160, align 1
  %162 = bitcast i8* %158 to i64*
  store i64 %161, i64* %162, align 1
  %163 = getelementptr i8, i8* %158, i64 8
  %164 = getelementptr i8, i8* %129, i64 1344
  %165 = bitcast i8* %164 to i64*
  %166 = load i64, i64* %165, align 1
  %167 = bitcast i8* %163 to i64*
  store i64 %166, i64* %167, align 1
  %168 = getelementptr i8, i8* %163, i64 8
  %169 = getelementptr i8, i8* %9, i64 12288
  %170 = bitcast i8* %169 to i64*
  %171 = load i64, i64* %170, align 1
  %172 = bitcast i8* %168 to i64*
  store i64 %171, i64* %172, align 1
  %173 = getelementptr i8, i8* %168, i64 8
  %174 = getelementptr i8, i8* %169, i64 192
  %175 = bitcast i8* %174 to i64*
  %176 = load i64, i64* %175, align 1
  %177 = bitcast i8* %173 to i64*
  store i64 %176, i64* %177, align 1
  %178 = getelementptr i8, i8* %173, i64 8
  %179 = getelementptr i8, i8* %169, i64 384
  %180 = bitcast i8* %179 to i64*
  %181 = load i64, i64* %180, align 1
  %182 = bitcast i8* %178 to i64*
  store i64 %181, i64* %182, align 1
  %183 = getelementptr i8, i8* %178, i64 8
  %184 = getelementptr i8, i8* %169, i64 576
  %185 = bitcast i8* %184 to i64*
  %186 = load i64, i64* %185, align 1
  %187 = bitcast i8* %183 to i64*
  store i64 %186, i64* %187, align 1
  %188 = getelementptr i8, i8* %183, i64 8
  %189 = getelementptr i8, i8* %169, i64 768
  %190 = bitcast i8* %189 to i64*
  %191 = load i64, i64* %190, align 1
  %192 = bitcast i8* %188 to i64*
  store i64 %191, i64* %192, align 1
  %193 = getelementptr i8, i8* %188, i64 8
  %194 = getelementptr i8, i8* %169, i64 960
  %195 = bitcast i8* %194 to i64*
  %196 = load i64, i64* %195, align 1
  %197 = bitcast i8* %193 to i64*
  store i64 %196, i64* %197, align 1
  %198 = getelementptr i8, i8* %193, i64 8
  %199 = getelementptr i8, i8* %169, i64 1152
  %200 = bitcast i8* %199 to i64*
  %201 = load i64, i64* %200, align 1
  %202 = bitcast i8* %198 to i64*
  store i64 %201, i64* %202, align 1
  %203 = getelementptr i8, i8* %198, i64 8
  %204 = getelementptr i8, i8* %169, i64 1344
  %205 = bitcast i8* %204 to i64*
  %206 = load i64, i64* %205, align 1
  %207 = bitcast i8* %203 to i64*
  store i64 %206, i64* %207, align 1
  %208 = getelementptr i8, i8* %203, i64 8
  %209 = getelementptr i8, i8* %9, i64 15360
  %210 = bitcast i8* %209 to i64*
  %211 = load i64, i64* %210, align 1
  %212 = bitcast i8* %208 to i64*
  store i64 %211, i64* %212, align 1
  %213 = getelementptr i8, i8* %208, i64 8
  %214 = getelementptr i8, i8* %209, i64 192
  %215 = bitcast i8* %214 to i64*
  %216 = load i64, i64* %215, align 1
  %217 = bitcast i8* %213 to i64*
  store i64 %216, i64* %217, align 1
  %218 = getelementptr i8, i8* %213, i64 8
  %219 = getelementptr i8, i8* %209, i64 384
  %220 = bitcast i8* %219 to i64*
  %221 = load i64, i64* %220, align 1
  %222 = bitcast i8* %218 to i64*
  store i64 %221, i64* %222, align 1
  %223 = getelementptr i8, i8* %218, i64 8
  %224 = getelementptr i8, i8* %209, i64 576
  %225 = bitcast i8* %224 to i64*
  %226 = load i64, i64* %225, align 1
  %227 = bitcast i8* %223 to i64*
  store i64 %226, i64* %227, align 1
  %228 = getelementptr i8, i8* %223, i64 8
  %229 = getelementptr i8, i8* %209, i64 768
  %230 = bitcast i8* %229 to i64*
  %231 = load i64, i64* %230, align 1
  %232 = bitcast i8* %228 to i64*
  store i64 %231, i64* %232, align 1
  %233 = getelementptr i8, i8* %228, i64 8
  %234 = getelementptr i8, i8* %209, i64 960
  %235 = bitcast i8* %234 to i64*
  %236 = load i64, i64* %235, align 1
  %237 = bitcast i8* %233 to i64*
  store i64 %236, i64* %237, align 1
  %238 = getelementptr i8, i8* %233, i64 8
  %239 = getelementptr i8, i8* %209, i64 1152
  %240 = bitcast i8* %239 to i64*
  %241 = load i64, i64* %240, align 1
  %242 = bitcast i8* %238 to i64*
  store i64 %241, i64* %242, align 1
  %243 = getelementptr i8, i8* %238, i64 8
  %244 = getelementptr i8, i8* %209, i64 1344
  %245 = bitcast i8* %244 to i64*
  %246 = load i64, i64* %245, align 1
  %247 = bitcast i8* %243 to i64*
  store i64 %246, i64* %247, align 1
  %248 = getelementptr i8, i8* %243, i64 8
  %249 = getelementptr i8, i8* %9, i64 18432
  %250 = bitcast i8* %249 to i64*
  %251 = load i64, i64* %250, align 1
  %252 = bitcast i8* %248 to i64*
  store i64 %251, i64* %252, align 1
  %253 = getelementptr i8, i8* %248, i64 8
  %254 = getelementptr i8, i8* %249, i64 192
  %255 = bitcast i8* %254 to i64*
  %256 = load i64, i64* %255, align 1
  %257 = bitcast i8* %253 to i64*
  store i64 %256, i64* %257, align 1
  %258 = getelementptr i8, i8* %253, i64 8
  %259 = getelementptr i8, i8* %249, i64 384
  %260 = bitcast i8* %259 to i64*
  %261 = load i64, i64* %260, align 1
  %262 = bitcast i8* %258 to i64*
  store i64 %261, i64* %262, align 1
  %263 = getelementptr i8, i8* %258, i64 8
  %264 = getelementptr i8, i8* %249, i64 576
  %265 = bitcast i8* %264 to i64*
  %266 = load i64, i64* %265, align 1
  %267 = bitcast i8* %263 to i64*
  store i64 %266, i64* %267, align 1
  %268 = getelementptr i8, i8* %263, i64 8
  %269 = getelementptr i8, i8* %249, i64 768
  %270 = bitcast i8* %269 to i64*
  %271 = load i64, i64* %270, align 1
  %272 = bitcast i8* %268 to i64*
  store i64 %271, i64* %272, align 1
  %273 = getelementptr i8, i8* %268, i64 8
  %274 = getelementptr i8, i8* %249, i64 960
  %275 = bitcast i8* %274 to i64*
  %276 = load i64, i64* %275, align 1
  %277 = bitcast i8* %273 to i64*
  store i64 %276, i64* %277, align 1
  %278 = getelementptr i8, i8* %273, i64 8
  %279 = getelementptr i8, i8* %249, i64 1152
  %280 = bitcast i8* %279 to i64*
  %281 = load i64, i64* %280, align 1
  %282 = bitcast i8* %278 to i64*
  store i64 %281, i64* %282, align 1
  %283 = getelementptr i8, i8* %278, i64 8
  %284 = getelementptr i8, i8* %249, i64 1344
  %285 = bitcast i8* %284 to i64*
  %286 = load i64, i64* %285, align 1
  %287 = bitcast i8* %283 to i64*
  store i64 %286, i64* %287, align 1
  %288 = getelementptr i8, i8* %283, i64 8
  %289 = getelementptr i8, i8* %9, i64 21504
  %290 = bitcast i8* %289 to i64*
  %291 = load i64, i64* %290, align 1
  %292 = bitcast i8* %288 to i64*
  store i64 %291, i64* %292, align 1
  %293 = getelementptr i8, i8* %288, i64 8
  %294 = getelementptr i8, i8* %289, i64 192
  %295 = bitcast i8* %294 to i64*
  %296 = load i64, i64* %295, align 1
  %297 = bitcast i8* %293 to i64*
  store i64 %296, i64* %297, align 1
  %298 = getelementptr i8, i8* %293, i64 8
  %299 = getelementptr i8, i8* %289, i64 384
  %300 = bitcast i8* %299 to i64*
  %301 = load i64, i64* %300, align 1
  %302 = bitcast i8* %298 to i64*
  store i64 %301, i64* %302, align 1
  %303 = getelementptr i8, i8* %298, i64 8
  %304 = getelementptr i8, i8* %289, i64 576
  %305 = bitcast i8* %304 to i64*
  %306 = load i64, i64* %305, align 1
  %307 = bitcast i8* %303 to i64*
  store i64 %306, i64* %307, align 1
  %308 = getelementptr i8, i8* %303, i64 8
  %309 = getelementptr i8, i8* %289, i64 768
  %310 = bitcast i8* %309 to i64*
  %311 = load i64, i64* %310, align 1
  %312 = bitcast i8* %308 to i64*
  store i64 %311, i64* %312, align 1
  %313 = getelementptr i8, i8* %308, i64 8
  %314 = getelementptr i8, i8* %289, i64 960
  %315 = bitcast i8* %314 to i64*
  %316 = load i64, i64* %315, align 1
  %317 = bitcast i8* %313 to i64*
  store i64 %316, i64* %317, align 1
  %318 = getelementptr i8, i8* %313, i64 8
  %319 = getelementptr i8, i8* %289, i64 1152
  %320 = bitcast i8* %319 to i64*
  %321 = load i64, i64* %320, align 1
  %322 = bitcast i8* %318 to i64*
  store i64 %321, i64* %322, align 1
  %323 = getelementptr i8, i8* %318, i64 8
  %324 = getelementptr i8, i8* %289, i64 1344
  %325 = bitcast i8* %324 to i64*
  %326 = load i64, i64* %325, align 1
  %327 = bitcast i8* %323 to i64*
  store i64 %326, i64* %327, align 1
  %328 = getelementptr i8, i8* %323, i64 8
  %329 = add i64 %i3, 1
  %330 = icmp slt i64 %329, 8
  br i1 %330, label %latch, label %done2

done2:                                            ; preds = %loop1, %loop
  %331 = phi i8* [ %out, %loop ], [ %328, %loop1 ]
  %332 = add i64 %i, 1
  %333 = icmp slt i64 %332, %3
  br i1 %333, label %latch5, label %done

latch:                                            ; preds = %loop1
  br label %loop1

latch5:                                           ; preds = %done2
  br label %loop
}

define void @dl_bd6e43fc572f3035(i8* noalias %0, i8* noalias %1, i64 %2, i64 %3) {
entry:
  %4 = icmp slt i64 %2, %3
  br i1 %4, label %loop, label %done

loop:                                             ; preds = %latch5, %entry
  %i = phi i64 [ %2, %entry ], [ %332, %latch5 ]
  %out = phi i8* [ %1, %entry ], [ %331, %latch5 ]
  %5 = mul i64 %i, 786432
  %6 = getelementptr i8, i8* %0, i64 %5
  br i1 true, label %loop1, label %done2

done:                                             ; preds = %done2, %entry
  %7 = phi i8* [ %1, %entry ], [ %331, %done2 ]
  ret void

loop1:                                            ; preds = %latch, %loop
  %i3 = phi i64 [ 0, %loop ], [ %329, %latch ]
  %out4 = phi i8* [ %out, %loop ], [ %328, %latch ]
  %8 = mul i64 %i3, 49152
  %9 = getelementptr i8, i8* %6, i64 %8
  %10 = bitcast i8* %out4 to i64*
  %11 = load i64, i64* %10, align 1
  %12 = bitcast i8* %9 to i64*
  store i64 %11, i64* %12, align 1
  %13 = getelementptr i8, i8* %out4, i64 8
  %14 = getelementptr i8, i8* %9, i64 192
  %15 = bitcast i8* %13 to i64*
  %16 = load i64, i64* %15, align 1
  %17 = bitcast i8* %14 to i64*
  store i64 %16, i64* %17, align 1
  %18 = getelementptr i8, i8* %13, i64 8
  %19 = getelementptr i8, i8* %9, i64 384
  %20 = bitcast i8* %18 to i64*
  %21 = load i64, i64* %20, align 1
  %22 = bitcast i8* %19 to i64*
  store i64 %21, i64* %22, align 1
  %23 = getelementptr i8, i8* %18, i64 8
  %24 = getelementptr i8, i8* %9, i64 576
  %25 = bitcast i8* %23 to i64*
  %26 = load i64, i64* %25, align 1
  %27 = bitcast i8* %24 to i64*
  store i64 %26, i64* %27, align 1
  %28 = getelementptr i8, i8* %23, i64 8
  %29 = getelementptr i8, i8* %9, i64 768
  %30 = bitcast i8* %28 to i64*
  %31 = load i64, i64* %30, align 1
  %32 = bitcast i8* %29 to i64*
  store i64 %31, i64* %32, align 1
  %33 = getelementptr i8, i8* %28, i64 8
  %34 = getelementptr i8, i8* %9, i64 960
  %35 = bitcast i8* %33 to i64*
  %36 = load i64, i64* %35, align 1
  %37 = bitcast i8* %34 to i64*
  store i64 %36, i64* %37, align 1
  %38 = getelementptr i8, i8* %33, i64 8
  %39 = getelementptr i8, i8* %9, i64 1152
  %40 = bitcast i8* %38 to i64*
  %41 = load i64, i64* %40, align 1
  %42 = bitcast i8* %39 to i64*
  store i64 %41, i64* %42, align 1
  %43 = getelementptr i8, i8* %38, i64 8
  %44 = getelementptr i8, i8* %9, i64 1344
  %45 = bitcast i8* %43 to i64*
  %46 = load i64, i64* %45, align 1
  %47 = bitcast i8* %44 to i64*
  store i64 %46, i64* %47, align 1
  %48 = getelementptr i8, i8* %43, i64 8
  %49 = getelementptr i8, i8* %9, i64 3072
  %50 = bitcast i8* %48 to i64*
  %51 = load i64, i64* %50, align 1
  %52 = bitcast i8* %49 to i64*
  store i64 %51, i64* %52, align 1
  %53 = getelementptr i8, i8* %48, i64 8
  %54 = getelementptr i8, i8* %49, i64 192
  %55 = bitcast i8* %53 to i64*
  %56 = load i64, i64* %55, align 1
  %57 = bitcast i8* %54 to i64*
  store i64 %56, i64* %57, align 1
  %58 = getelementptr i8, i8* %53, i64 8
  %59 = getelementptr i8, i8* %49, i64 384
  %60 = bitcast i8* %58 to i64*
  %61 = load i64, i64* %60, align 1
  %62 = bitcast i8* %59 to i64*
  store i64 %61, i64* %62, align 1
  %63 = getelementptr i8, i8* %58, i64 8
  %64 = getelementptr i8, i8* %49, i64 576
  %65 = bitcast i8* %63 to i64*
  %66 = load i64, i64* %65, align 1
  %67 = bitcast i8* %64 to i64*
  store i64 %66, i64* %67, align 1
  %68 = getelementptr i8, i8* %63, i64 8
  %69 = getelementptr i8, i8* %49, i64 768
  %70 = bitcast i8* %68 to i64*
  %71 = load i64, i64* %70, align 1
  %72 = bitcast i8* %69 to i64*
  store i64 %71, i64* %72, align 1
  %73 = getelementptr i8, i8* %68, i64 8
  %74 = getelementptr i8, i8* %49, i64 960
  %75 = bitcast i8* %73 to i64*
  %76 = load i64, i64* %75, align 1
  %77 = bitcast i8* %74 to i64*
  store i64 %76, i64* %77, align 1
  %78 = getelementptr i8, i8* %73, i64 8
  %79 = getelementptr i8, i8* %49, i64 1152
  %80 = bitcast i8* %78 to i64*
  %81 = load i64, i64* %80, align 1
  %82 = bitcast i8* %79 to i64*
  store i64 %81, i64* %82, align 1
  %83 = getelementptr i8, i8* %78, i64 8
  %84 = getelementptr i8, i8* %49, i64 1344
  %85 = bitcast i8* %83 to i64*
  %86 = load i64, i64* %85, align 1
  %87 = bitcast i8* %84 to i64*
  store i64 %86, i64* %87, align 1
  %88 = getelementptr i8, i8* %83, i64 8
  %89 = getelementptr i8, i8* %9, i64 6144
  %90 = bitcast i8* %88 to i64*
  %91 = load i64, i64* %90, align 1
  %92 = bitcast i8* %89 to i64*
  store i64 %91, i64* %92, align 1
  %93 = getelementptr i8, i8* %88, i64 8
  %94 = getelementptr i8, i8* %89, i64 192
  %95 = bitcast i8* %93 to i64*
  %96 = load i64, i64* %95, align 1
  %97 = bitcast i8* %94 to i64*
  store i64 %96, i64* %97, align 1
  %98 = getelementptr i8, i8* %93, i64 8
  %99 = getelementptr i8, i8* %89, i64 384
  %100 = bitcast i8* %98 to i64*
  %101 = load i64, i64* %100, align 1
  %102 = bitcast i8* %99 to i64*
  store i64 %101, i64* %102, align 1
  %103 = getelementptr i8, i8* %98, i64 8
  %104 = getelementptr i8, i8* %89, i64 576
  %105 = bitcast i8* %103 to i64*
  %106 = load i64, i64* %105, align 1
  %107 = bitcast i8* %104 to i64*
  store i64 %106, i64* %107, align 1
  %108 = getelementptr i8, i8* %103, i64 8
  %109 = getelementptr i8, i8* %89, i64 768
  %110 = bitcast i8* %108 to i64*
  %111 = load i64, i64* %110, align 1
  %112 = bitcast i8* %109 to i64*
  store i64 %111, i64* %112, align 1
  %113 = getelementptr i8, i8* %108, i64 8
  %114 = getelementptr i8, i8* %89, i64 960
  %115 = bitcast i8* %113 to i64*
  %116 = load i64, i64* %115, align 1
  %117 = bitcast i8* %114 to i64*
  store i64 %116, i64* %117, align 1
  %118 = getelementptr i8, i8* %113, i64 8
  %119 = getelementptr i8, i8* %89, i64 1152
  %120 = bitcast i8* %118 to i64*
  %121 = load i64, i64* %120, align 1
  %122 = bitcast i8* %119 to i64*
  store i64 %121, i64* %122, align 1
  %123 = getelementptr i8, i8* %118, i64 8
  %124 = getelementptr i8, i8* %89, i64 1344
  %125 = bitcast i8* %123 to i64*
  %126 = load i64, i64* %125, align 1
  %127 = bitcast i8* %124 to i64*
  store i64 %126, i64* %127, align 1
  %128 = getelementptr i8, i8* %123, i64 8
  %129 = getelementptr i8, i8* %9, i64 9216
  %130 = bitcast i8* %128 to i64*
  %131 = load i64, i64* %130, align 1
  %132 = bitcast i8* %129 to i64*
  store i64 %131, i64* %132, align 1
  %133 = getelementptr i8, i8* %128, i64 8
  %134 = getelementptr i8, i8* %129, i64 192
  %135 = bitcast i8* %133 to i64*
  %136 = load i64, i64* %135, align 1
  %137 = bitcast i8* %134 to i64*
  store i64 %136, i64* %137, align 1
  %138 = getelementptr i8, i8* %133, i64 8
  %139 = getelementptr i8, i8* %129, i64 384
  %140 = bitcast i8* %138 to i64*
  %141 = load i64, i64* %140, align 1
  %142 = bitcast i8* %139 to i64*
  store i64 %141, i64* %142, align 1
  %143 = getelementptr i8, i8* %138, i64 8
  %144 = getelementptr i8, i8* %129, i64 576
  %145 = bitcast i8* %143 to i64*
  %146 = load i64, i64* %145, align 1
  %147 = bitcast i8* %144 to i64*
  store i64 %146, i64* %147, align 1
  %148 = getelementptr i8, i8* %143, i64 8
  %149 = getelementptr i8, i8* %129, i64 768
  %150 = bitcast i8* %148 to i64*
  %151 = load i64, i64* %150, align 1
  %152 = bitcast i8* %149 to i64*
  store i64 %151, i64* %152, align 1
  %153 = getelementptr i8, i8* %148, i64 8
  %154 = getelementptr i8, i8* %129, i64 960
  %155 = bitcast i8* %153 to i64*
  %156 = load i64, i64* %155, align 1
  %157 = bitcast i8* %154 to i64*
  store i64 %156, i64* %157, align 1
  %158 = getelementptr i8, i8* %153, i64 8
  %159 = getelementptr i8, i8* %129, i64 1152
  %160 = bitcast i8* %158 to i64*
  %161 = load i64, i64* %160, align 1
  %162 = bitcast i8* %159 to i64*
  store i64 %161, i64* %162, align 1
  %163 = getelementptr i8, i8* %158, i64 8
  %164 = getelementptr i8, i8* %129, i64 1344
  %165 = bitcast i8* %163 to i64*
  %166 = load i64, i64* %165, align 1
  %167 = bitcast i8* %164 to i64*
  store i64 %166, i64* %167, align 1
  %168 = getelementptr i8, i8* %163, i64 8
  %169 = getelementptr i8, i8* %9, i64 12288
  %170 = bitcast i8* %168 to i64*
  %171 = load i64, i64* %170, align 1
  %172 = bitcast i8* %169 to i64*
  store i64 %171, i64* %172, align 1
  %173 = getelementptr i8, i8* %168, i64 8
  %174 = getelementptr i8, i8* %169, i64 192
  %175 = bitcast i8* %173 to i64*
  %176 = load i64, i64* %175, align 1
  %177 = bitcast i8* %174 to i64*
  store i64 %176, i64* %177, align 1
  %178 = getelementptr i8, i8* %173, i64 8
  %179 = getelementptr i8, i8* %169, i64 384
  %180 = bitcast i8* %178 to i64*
  %181 = load i64, i64* %180, align 1
  %182 = bitcast i8* %179 to i64*
  store i64 %181, i64* %182, align 1
  %183 = getelementptr i8, i8* %178, i64 8
  %184 = getelementptr i8, i8* %169, i64 576
  %185 = bitcast i8* %183 to i64*
  %186 = load i64, i64* %185, align 1
  %187 = bitcast i8* %184 to i64*
  store i64 %186, i64* %187, align 1
  %188 = getelementptr i8, i8* %183, i64 8
  %189 = getelementptr i8, i8* %169, i64 768
  %190 = bitcast i8* %188 to i64*
  %191 = load i64, i64* %190, align 1
  %192 = bitcast i8* %189 to i64*
  store i64 %191, i64* %192, align 1
  %193 = getelementptr i8, i8* %188, i64 8
  %194 = getelementptr i8, i8* %169, i64 960
  %195 = bitcast i8* %193 to i64*
  %196 = load i64, i64* %195, align 1
  %197 = bitcast i8* %194 to i64*
  store i64 %196, i64* %197, align 1
  %198 = getelementptr i8, i8* %193, i64 8
  %199 = getelementptr i8, i8* %169, i64 1152
  %200 = bitcast i8* %198 to i64*
  %201 = load i64, i64* %200, align 1
  %202 = bitcast i8* %199 to i64*
  store i64 %201, i64* %202, align 1
  %203 = getelementptr i8, i8* %198, i64 8
  %204 = getelementptr i8, i8* %169, i64 1344
  %205 = bitcast i8* %203 to i64*
  %206 = load i64, i64* %205, align 1
  %207 = bitcast i8* %204 to i64*
  store i64 %206, i64* %207, align 1
  %208 = getelementptr i8, i8* %203, i64 8
  %209 = getelementptr i8, i8* %9, i64 15360
  %210 = bitcast i8* %208 to i64*
  %211 = load i64, i64* %210, align 1
  %212 = bitcast i8* %209 to i64*
  store i64 %211, i64* %212, align 1
  %213 = getelementptr i8, i8* %208, i64 8
  %214 = getelementptr i8, i8* %209, i64 192
  %215 = bitcast i8* %213 to i64*
  %216 = load i64, i64* %215, align 1
  %217 = bitcast i8* %214 to i64*
  store i64 %216, i64* %217, align 1
  %218 = getelementptr i8, i8* %213, i64 8
  %219 = getelementptr i8, i8* %209, i64 384
  %220 = bitcast i8* %218 to i64*
  %221 = load i64, i64* %220, align 1
  %222 = bitcast i8* %219 to i64*
  store i64 %221, i64* %222, align 1
  %223 = getelementptr i8, i8* %218, i64 8
  %224 = getelementptr i8, i8* %209, i64 576
  %225 = bitcast i8* %223 to i64*
  %226 = load i64, i64* %225, align 1
  %227 = bitcast i8* %224 to i64*
  store i64 %226, i64* %227, align 1
  %228 = getelementptr i8, i8* %223, i64 8
  %229 = getelementptr i8, i8* %209, i64 768
  %230 = bitcast i8* %228 to i64*
  %231 = load i64, i64* %230, align 1
  %232 = bitcast i8* %229 to i64*
  store i64 %231, i64* %232, align 1
  %233 = getelementptr i8, i8* %228, i64 8
  %234 = getelementptr i8, i8* %209, i64 960
  %235 = bitcast i8* %233 to i64*
  %236 = load i64, i64* %235, align 1
  %237 = bitcast i8* %234 to i64*
  store i64 %236, i64* %237, align 1
  %238 = getelementptr i8, i8* %233, i64 8
  %239 = getelementptr i8, i8* %209, i64 1152
  %240 = bitcast i8* %238 to i64*
  %241 = load i64, i64* %240, align 1
  %242 = bitcast i8* %239 to i64*
  store i64 %241, i64* %242, align 1
  %243 = getelementptr i8, i8* %238, i64 8
  %244 = getelementptr i8, i8* %209, i64 1344
  %245 = bitcast i8* %243 to i64*
  %246 = load i64, i64* %245, align 1
  %247 = bitcast i8* %244 to i64*
  store i64 %246, i64* %247, align 1
  %248 = getelementptr i8, i8* %243, i64 8
  %249 = getelementptr i8, i8* %9, i64 18432
  %250 = bitcast i8* %248 to i64*
  %251 = load i64, i64* %250, align 1
  %252 = bitcast i8* %249 to i64*
  store i64 %251, i64* %252, align 1
  %253 = getelementptr i8, i8* %248, i64 8
  %254 = getelementptr i8, i8* %249, i64 192
  %255 = bitcast i8* %253 to i64*
  %256 = load i64, i64* %255, align 1
  %257 = bitcast i8* %254 to i64*
  store i64 %256, i64* %257, align 1
  %258 = getelementptr i8, i8* %253, i64 8
  %259 = getelementptr i8, i8* %249, i64 384
  %260 = bitcast i8* %258 to i64*
  %261 = load i64, i64* %260, align 1
  %262 = bitcast i8* %259 to i64*
  store i64 %261, i64* %262, align 1
  %263 = getelementptr i8, i8* %258, i64 8
  %264 = getelementptr i8, i8* %249, i64 576
  %265 = bitcast i8* %263 to i64*
  %266 = load i64, i64* %265, align 1
  %267 = bitcast i8* %264 to i64*
  store i64 %266, i64* %267, align 1
  %268 = getelementptr i8, i8* %263, i64 8
  %269 = getelementptr i8, i8* %249, i64 768
  %270 = bitcast i8* %268 to i64*
  %271 = load i64, i64* %270, align 1
  %272 = bitcast i8* %269 to i64*
  store i64 %271, i64* %272, align 1
  %273 = getelementptr i8, i8* %268, i64 8
  %274 = getelementptr i8, i8* %249, i64 960
  %275 = bitcast i8* %273 to i64*
  %276 = load i64, i64* %275, align 1
  %277 = bitcast i8* %274 to i64*
  store i64 %276, i64* %277, align 1
  %278 = getelementptr i8, i8* %273, i64 8
  %279 = getelementptr i8, i8* %249, i64 1152
  %280 = bitcast i8* %278 to i64*
  %281 = load i64, i64* %280, align 1
  %282 = bitcast i8* %279 to i64*
  store i64 %281, i64* %282, align 1
  %283 = getelementptr i8, i8* %278, i64 8
  %284 = getelementptr i8, i8* %249, i64 1344
  %285 = bitcast i8* %283 to i64*
  %286 = load i64, i64* %285, align 1
  %287 = bitcast i8* %284 to i64*
  store i64 %286, i64* %287, align 1
  %288 = getelementptr i8, i8* %283, i64 8
  %289 = getelementptr i8, i8* %9, i64 21504
  %290 = bitcast i8* %288 to i64*
  %291 = load i64, i64* %290, align 1
  %292 = bitcast i8* %289 to i64*
  store i64 %291, i64* %292, align 1
  %293 = getelementptr i8, i8* %288, i64 8
  %294 = getelementptr i8, i8* %289, i64 192
  %295 = bitcast i8* %293 to i64*
  %296 = load i64, i64* %295, align 1
  %297 = bitcast i8* %294 to i64*
  store i64 %296, i64* %297, align 1
  %298 = getelementptr i8, i8* %293, i64 8
  %299 = getelementptr i8, i8* %289, i64 384
  %300 = bitcast i8* %298 to i64*
  %301 = load i64, i64* %300, align 1
  %302 = bitcast i8* %299 to i64*
  store i64 %301, i64* %302, align 1
  %303 = getelementptr i8, i8* %298, i64 8
  %304 = getelementptr i8, i8* %289, i64 576
  %305 = bitcast i8* %303 to i64*
  %306 = load i64, i64* %305, align 1
  %307 = bitcast i8* %304 to i64*
  store i64 %306, i64* %307, align 1
  %308 = getelementptr i8, i8* %303, i64 8
  %309 = getelementptr i8, i8* %289, i64 768
  %310 = bitcast i8* %308 to i64*
  %311 = load i64, i64* %310, align 1
  %312 = bitcast i8* %309 to i64*
  store i64 %311, i64* %312, align 1
  %313 = getelementptr i8, i8* %308, i64 8
  %314 = getelementptr i8, i8* %289, i64 960
  %315 = bitcast i8* %313 to i64*
  %316 = load i64, i64* %315, align 1
  %317 = bitcast i8* %314 to i64*
  store i64 %316, i64* %317, align 1
  %318 = getelementptr i8, i8* %313, i64 8
  %319 = getelementptr i8, i8* %289, i64 1152
  %320 = bitcast i8* %318 to i64*
  %321 = load i64, i64* %320, align 1
  %322 = bitcast i8* %319 to i64*
  store i64 %321, i64* %322, align 1
  %323 = getelementptr i8, i8* %318, i64 8
  %324 = getelementptr i8, i8* %289, i64 1344
  %325 = bitcast i8* %323 to i64*
  %326 = load i64, i64* %325, align 1
  %327 = bitcast i8* %324 to i64*
  store i64 %326, i64* %327, align 1
  %328 = getelementptr i8, i8* %323, i64 8
  %329 = add i64 %i3, 1
  %330 = icmp slt i64 %329, 8
  br i1 %330, label %latch, label %done2

done2:                                            ; preds = %loop1, %loop
  %331 = phi i8* [ %out, %loop ], [ %328, %loop1 ]
  %332 = add i64 %i, 1
  %333 = icmp slt i64 %332, %3
  br i1 %333, label %latch5, label %done

latch:                                            ; preds = %loop1
  br label %loop1

latch5:                                           ; preds = %done2
  br label %loop
}
